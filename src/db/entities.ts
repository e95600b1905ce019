import { RefreshToken } from '../modules/auth/refresh-token.entity';
import { TokenFamily } from '../modules/auth/token-family.entity';
import { Merchant } from '../modules/merchants/merchant.entity';

export const entities = [Merchant, TokenFamily, RefreshToken];
