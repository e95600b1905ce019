#!/bin/bash
# Issue 40, part 3: how old events leave the hot tables, measured two ways on the same data (BENCHMARKS.md,
# "Issue #40, part 3"; docs/design.md, "Retention"):
#   plain:       the service's tables (events; deliveries and attempts cascading from them), and the retention's
#                statement: batches of 1,000 deleted, oldest first per merchant, through the merchant's index;
#   partitioned: the same three tables partitioned by day on created_at, and the oldest day's partitions dropped.
# Also what partitioning costs every request: an insert of an event with its delivery, and a read of an event by
# its id (which carries no time, so every partition is probed). Needs psql and the local PostgreSQL
# (127.0.0.1:5432, user postgres); creates and drops a database named retention; run it on a quiet server (it
# reads the cluster-wide WAL position). DAYS (default 30) days of EVENTS_PER_DAY (default 30,000) events over
# MERCHANTS (default 200) merchants, one delivery and one attempt each; N (default 5,000) inserts and reads timed.
#   bash bench/retention.sh
set -e
P="psql -h 127.0.0.1 -U postgres -X -q -At"
DAYS=${DAYS:-30}; PER_DAY=${EVENTS_PER_DAY:-30000}; MERCHANTS=${MERCHANTS:-200}; N=${N:-5000}
$P -c "drop database if exists retention" -c "create database retention"
R="$P -d retention"
$R <<SQL
create table merchant (id uuid primary key);
insert into merchant select gen_random_uuid() from generate_series(1, $MERCHANTS);
-- The service's tables (migrations 20261122020000 and 20261122040000), as they are.
create table outbox_event (id text primary key, merchant_id uuid not null references merchant(id), type text not null,
  subject_id text not null, payload jsonb not null, created_at timestamptz not null);
create index on outbox_event (merchant_id, created_at desc, id desc);
create index on outbox_event (subject_id);
create table webhook_delivery (event_id text primary key references outbox_event(id) on delete cascade, merchant_id uuid not null,
  status text not null, attempt_count int not null, next_attempt_at timestamptz, created_at timestamptz not null, updated_at timestamptz not null);
create index on webhook_delivery (merchant_id, status);
create table webhook_attempt (id bigserial primary key, event_id text not null references outbox_event(id) on delete cascade,
  merchant_id uuid not null, attempted_at timestamptz not null, status_code int, latency_ms int not null, success boolean not null);
create index on webhook_attempt (event_id, id);
-- The same, partitioned by day: the key must carry the partition key, and so must the deliveries' reference.
create table p_event (id text not null, merchant_id uuid not null, type text not null, subject_id text not null, payload jsonb not null,
  created_at timestamptz not null, primary key (id, created_at)) partition by range (created_at);
create index on p_event (merchant_id, created_at desc, id desc);
create index on p_event (subject_id);
create table p_delivery (event_id text not null, created_at timestamptz not null, merchant_id uuid not null, status text not null,
  attempt_count int not null, next_attempt_at timestamptz, updated_at timestamptz not null, primary key (event_id, created_at),
  foreign key (event_id, created_at) references p_event (id, created_at) on delete cascade) partition by range (created_at);
create index on p_delivery (merchant_id, status);
create table p_attempt (id bigserial, event_id text not null, created_at timestamptz not null, merchant_id uuid not null,
  attempted_at timestamptz not null, status_code int, latency_ms int not null, success boolean not null, primary key (id, created_at))
  partition by range (created_at);
create index on p_attempt (event_id, id);
do \$\$ begin for d in 0..$DAYS loop
  execute format('create table p_event_%s partition of p_event for values from (%L) to (%L)', d, date '2026-01-01' + d, date '2026-01-01' + d + 1);
  execute format('create table p_delivery_%s partition of p_delivery for values from (%L) to (%L)', d, date '2026-01-01' + d, date '2026-01-01' + d + 1);
  execute format('create table p_attempt_%s partition of p_attempt for values from (%L) to (%L)', d, date '2026-01-01' + d, date '2026-01-01' + d + 1);
end loop; end \$\$;
create temp table m as select id, row_number() over () as n from merchant;
create table gen as select 'evt_' || lpad(to_hex(i), 12, '0') || md5(i::text) as id, (select id from m where n = 1 + i % $MERCHANTS) as merchant_id,
  timestamptz '2026-01-01' + (i::float8 / $PER_DAY) * interval '1 day' as created_at, i
  from generate_series(0, $DAYS * $PER_DAY - 1) i;
SQL
for layout in plain partitioned; do
  if [ $layout = plain ]; then E=outbox_event; D=webhook_delivery; A=webhook_attempt; else E=p_event; D=p_delivery; A=p_attempt; fi
  DC=$([ $layout = plain ] && echo "" || echo "created_at,")
  $R -c "insert into $E select id, merchant_id, 'collection.successful', 'txn_' || i, jsonb_build_object('reference', 'ref-' || i, 'amount', '25.50', 'currency', 'GHS', 'status', 'successful'), created_at from gen" \
     -c "insert into $D (event_id, $DC merchant_id, status, attempt_count, updated_at$([ $layout = plain ] && echo ", created_at")) select id, $([ $layout = plain ] || echo "created_at,") merchant_id, 'delivered', 1, created_at$([ $layout = plain ] && echo ", created_at") from gen" \
     -c "insert into $A (event_id, $DC merchant_id, attempted_at, status_code, latency_ms, success) select id, $([ $layout = plain ] || echo "created_at,") merchant_id, created_at, 200, 40, true from gen" \
     -c "vacuum analyze $E" -c "vacuum analyze $D" -c "vacuum analyze $A" -c "checkpoint"
  size=$($R -c "select pg_size_pretty(sum(pg_total_relation_size(c.oid))) from pg_class c where c.relkind in ('r','p') and c.relname ~ '^($E|$D|$A)'")
  # Removing the oldest day.
  before=$($R -c "select pg_current_wal_lsn()"); start=$(date +%s.%N)
  if [ $layout = plain ]; then
    while :; do
      n=$($R -c "with old as (select e.id from merchant m cross join lateral (select e.id from outbox_event e where e.merchant_id = m.id and e.created_at < timestamptz '2026-01-02'
                   and not exists (select 1 from webhook_delivery d where d.event_id = e.id and d.status = 'pending') order by e.created_at, e.id limit 1000) e limit 1000),
                 gone as (delete from outbox_event e using old where e.id = old.id returning 1) select count(*) from gone")
      [ "$n" -lt 1000 ] && break
    done
  else
    # The referencing day goes first: a detached partition keeps its foreign key to the parent table.
    $R -c "alter table p_attempt detach partition p_attempt_0" -c "drop table p_attempt_0" \
       -c "alter table p_delivery detach partition p_delivery_0" -c "drop table p_delivery_0" \
       -c "alter table p_event detach partition p_event_0" -c "drop table p_event_0"
  fi
  end=$(date +%s.%N); after=$($R -c "select pg_current_wal_lsn()")
  removed_s=$(echo "$end - $start" | bc); removed_wal=$($R -c "select pg_size_pretty(pg_wal_lsn_diff('$after', '$before'))")
  $R -c "checkpoint"
  # What every request pays: N events with their delivery, then N reads of an event by id (as the event log and the dispatcher read).
  before=$($R -c "select pg_current_wal_lsn()"); start=$(date +%s.%N)
  $R -c "do \$\$ declare t timestamptz; eid text; begin for i in 1..$N loop
           t := (date '2026-01-01' + $DAYS)::timestamptz + i * interval '1 millisecond'; eid := 'evt_new_' || lpad(to_hex(i), 12, '0') || md5(i::text);
           insert into $E values (eid, (select id from merchant limit 1), 'collection.successful', 'txn_new_' || i, '{\"status\": \"successful\"}', t);
           insert into $D (event_id, $DC merchant_id, status, attempt_count, updated_at$([ $layout = plain ] && echo ", created_at")) values (eid, $([ $layout = plain ] || echo "t,") (select id from merchant limit 1), 'pending', 0, t$([ $layout = plain ] && echo ", t"));
         end loop; end \$\$"
  end=$(date +%s.%N); after=$($R -c "select pg_current_wal_lsn()")
  ins_us=$(echo "($end - $start) * 1000000 / $N" | bc); ins_wal=$($R -c "select (pg_wal_lsn_diff('$after', '$before') / $N)::int")
  start=$(date +%s.%N)
  $R -c "do \$\$ declare r record; begin for i in 1..$N loop
           select e.id, d.status into r from $E e join $D d on d.event_id = e.id where e.id = 'evt_' || lpad(to_hex(i * 100), 12, '0') || md5((i * 100)::text);
         end loop; end \$\$"
  end=$(date +%s.%N); read_us=$(echo "($end - $start) * 1000000 / $N" | bc)
  echo "$layout: $DAYS days x $PER_DAY events ($size with deliveries and attempts); the oldest day removed in ${removed_s} s, WAL $removed_wal;" \
       "an event with its delivery inserted: ${ins_us} us, WAL ${ins_wal} bytes; an event read by id: ${read_us} us"
done
$P -c "drop database retention"
