#!/bin/bash
# WAL per insert after a checkpoint: random (UUID v4) against time-ordered (UUID v7) primary
# keys, on a table whose key index is larger than shared_buffers (BENCHMARKS.md, issue #22
# round 3). Needs psql and the local PostgreSQL (127.0.0.1:5432, user postgres); creates and
# drops a database named walkeys; run it on a quiet server (it reads the cluster-wide
# pg_stat_wal). ROWS (default 4,000,000) sizes the table, N (default 20,000) the inserts measured.
#   bash bench/wal-keys.sh
set -e
P="psql -h 127.0.0.1 -U postgres -X -q -At"
ROWS=${ROWS:-4000000}; N=${N:-20000}
$P -c "drop database if exists walkeys" -c "create database walkeys"
$P -d walkeys <<'SQL'
create function uuid_v7() returns uuid language sql volatile as $$
  select encode(set_bit(set_bit(overlay(uuid_send(gen_random_uuid()) placing
    substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3) from 1 for 6), 52, 1), 53, 1), 'hex')::uuid
$$;
SQL
for kind in v4 v7; do
  gen=$([ $kind = v4 ] && echo "gen_random_uuid()" || echo "uuid_v7()")
  $P -d walkeys -c "create table t_$kind (id uuid primary key, created_at timestamptz not null default clock_timestamp(), amount numeric not null)"
  $P -d walkeys -c "insert into t_$kind (id, amount) select $gen, 1 from generate_series(1, $ROWS)"
  $P -d walkeys -c "vacuum analyze t_$kind" -c "checkpoint"
  before=$($P -d walkeys -c "select pg_current_wal_lsn()")
  fpi0=$($P -d walkeys -c "select wal_fpi from pg_stat_wal")
  start=$(date +%s.%N)
  $P -d walkeys -c "do \$\$ begin for i in 1..$N loop insert into t_$kind (id, amount) values ($gen, 1); end loop; end \$\$"
  end=$(date +%s.%N)
  after=$($P -d walkeys -c "select pg_current_wal_lsn()")
  fpi1=$($P -d walkeys -c "select wal_fpi from pg_stat_wal")
  idx=$($P -d walkeys -c "select pg_size_pretty(pg_relation_size('t_${kind}_pkey'))")
  bytes=$($P -d walkeys -c "select pg_wal_lsn_diff('$after', '$before')")
  echo "$kind: pkey $idx; $N inserts after a checkpoint: WAL $(( ${bytes%.*} / N )) bytes per insert, full-page images $((fpi1 - fpi0)), $(echo "$end - $start" | bc) s"
done
$P -c "drop database walkeys"
