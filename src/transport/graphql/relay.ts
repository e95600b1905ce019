import { Field, ObjectType, type ClassType } from 'type-graphql';
import type { Page } from '../../shared/pagination';

@ObjectType('PageInfo')
export class PageInfo {
  @Field(() => Boolean)
  hasNextPage!: boolean;

  @Field(() => Boolean, { description: 'Always false: lists page forward only, newest first.' })
  hasPreviousPage!: boolean;

  @Field(() => String, { nullable: true })
  startCursor!: string | null;

  @Field(() => String, { nullable: true })
  endCursor!: string | null;
}

interface Edge<T> {
  cursor: string;
  node: T;
}

export interface ConnectionShape<T> {
  edges: Edge<T>[];
  pageInfo: PageInfo;
}

/** A Relay connection type (`<Name>Connection` with `<Name>Edge`) for one node type. */
export function Connection<T extends object>(nodeType: ClassType<T>, name: string) {
  @ObjectType(`${name}Edge`)
  class EdgeType implements Edge<T> {
    @Field(() => String)
    cursor!: string;

    @Field(() => nodeType)
    node!: T;
  }

  // Only the concrete subclasses are reachable from resolvers, so this base is never emitted itself.
  @ObjectType()
  abstract class ConnectionType implements ConnectionShape<T> {
    @Field(() => [EdgeType])
    edges!: EdgeType[];

    @Field(() => PageInfo)
    pageInfo!: PageInfo;
  }
  return ConnectionType;
}

/** Maps a service page to a connection. */
export function toConnection<S, T>(page: Page<S>, map: (node: S) => T): ConnectionShape<T> {
  const edges = page.items.map((item) => ({ cursor: item.cursor, node: map(item.node) }));
  return {
    edges,
    pageInfo: {
      hasNextPage: page.hasMore,
      hasPreviousPage: false,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
    },
  };
}
