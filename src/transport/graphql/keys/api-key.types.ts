import { Field, ID, ObjectType } from 'type-graphql';
import type { ApiKey, NewApiKey } from '../../../modules/auth/api-keys';
import { KEY_ROLES } from '../../../modules/access/permissions';
import { domainEnum } from '../enums';

export const KeyRoleEnum = domainEnum(
  KEY_ROLES,
  'KeyRole',
  'What an API key may do (docs/access.md): DEVELOPER (the default) or a narrower FINANCE, SUPPORT or VIEWER.',
);

@ObjectType('ApiKey', { description: 'An API key: a client credential with a label and a role. Never its secret.' })
export class ApiKeyObject {
  @Field(() => ID)
  id!: string;

  @Field(() => String)
  label!: string;

  @Field(() => KeyRoleEnum)
  role!: string;

  @Field(() => String)
  clientId!: string;

  @Field(() => Date)
  createdAt!: Date;

  @Field(() => String, { nullable: true, description: 'Who made it: a person’s email, or the client_id or `operator` that did.' })
  createdBy!: string | null;

  @Field(() => Date, { nullable: true, description: 'When it was last exchanged for a token.' })
  lastUsedAt!: Date | null;

  @Field(() => Date, { nullable: true })
  revokedAt!: Date | null;

  static from(key: ApiKey): ApiKeyObject {
    const { id, label, role, clientId, createdAt, createdBy, lastUsedAt, revokedAt } = key;
    return Object.assign(new ApiKeyObject(), { id, label, role, clientId, createdAt, createdBy, lastUsedAt, revokedAt });
  }
}

@ObjectType('NewApiKey', { description: 'A key made or rotated now, with its secret: the only time it is shown.' })
export class NewApiKeyObject {
  @Field(() => ApiKeyObject)
  apiKey!: ApiKeyObject;

  @Field(() => String)
  clientSecret!: string;

  static from(made: NewApiKey): NewApiKeyObject {
    return Object.assign(new NewApiKeyObject(), { apiKey: ApiKeyObject.from(made.apiKey), clientSecret: made.clientSecret });
  }
}
