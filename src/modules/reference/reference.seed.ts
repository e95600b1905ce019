import { LOCK_KEYS, withAdvisoryLock, type Orm } from '../../db/orm';
import type { Logger } from '../../shared/logger';
import { readReferenceData, type ReferenceDataSet } from './reference.data';
import { ChannelRecord, CountryRecord, CurrencyRecord, NetworkRecord } from './reference.entities';

/**
 * Writes the reference data files into their tables: an idempotent upsert, run at
 * every start right after the migrations, under an advisory lock so instances
 * starting together take turns. The files are the source of truth: a channel
 * removed from them becomes inactive (transactions may name it), a network
 * removed from them is deleted. Countries and currencies are only ever added or
 * updated, since customers and transactions refer to them.
 */
export async function seedReferenceData(orm: Orm, logger: Logger, data: ReferenceDataSet = readReferenceData()): Promise<void> {
  await withAdvisoryLock(orm, LOCK_KEYS.reference, () =>
    orm.em.fork().transactional(async (em) => {
      await em.upsertMany(CurrencyRecord, data.currencies);
      await em.upsertMany(CountryRecord, data.countries);
      await em.upsertMany(ChannelRecord, data.channels);
      await em.upsertMany(NetworkRecord, data.networks);
      const retired = await em.nativeUpdate(
        ChannelRecord,
        { id: { $nin: data.channels.map((c) => c.id) }, status: { $ne: 'inactive' } },
        { status: 'inactive' },
      );
      const removed = await em.nativeDelete(NetworkRecord, { id: { $nin: data.networks.map((n) => n.id) } });
      if (retired > 0 || removed > 0) logger.info({ retiredChannels: retired, removedNetworks: removed }, 'reference data pruned');
    }),
  );
  logger.debug(
    { currencies: data.currencies.length, countries: data.countries.length, channels: data.channels.length, networks: data.networks.length },
    'reference data seeded',
  );
}
