#!/usr/bin/env bash
# A facteur cluster on one machine, from Debian's packages: a pg_auto_failover monitor, a primary
# and a synchronous standby (PostgreSQL 15), haproxy in front of the PostgreSQL nodes (the primary
# found by an external check), pgbouncer (session pooling) for the API nodes, three API nodes and
# two workers, and haproxy in front of the API nodes (checks on /readyz).
#   npm run cluster            start (or join) the cluster, print its URL and a test key
#   npm run cluster -- down    stop everything
#   npm run cluster -- status  the PostgreSQL nodes' states and the processes
#   npm run cluster -- start NAME   (re)start one node (api1..api3, worker1..worker2)
# Loopback only. Ports and folder from the environment (defaults below); never the machine's 5432.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
DIR="${FACTEUR_CLUSTER_DIR:-/tmp/facteur-cluster}"
BASE="${FACTEUR_CLUSTER_PORT:-25400}"
PGBIN="${FACTEUR_CLUSTER_PGBIN:-/usr/lib/postgresql/15/bin}"
MONITOR_PORT=$BASE
PG1_PORT=$((BASE + 1))
PG2_PORT=$((BASE + 2))
HA_PG_PORT=$((BASE + 10))
BOUNCER_PORT=$((BASE + 11))
HA_HTTPS_PORT=$((BASE + 20))
HA_STATS_PORT=$((BASE + 21))
API_NODES="api1 api2 api3"
WORKER_NODES="worker1 worker2"
ALL_NODES="$API_NODES $WORKER_NODES"
export PATH="$PGBIN:$PATH"
# pg_autoctl keeps its state under XDG folders: keep them inside the cluster's folder.
AUTOCTL_ENV=(env "PATH=$PATH" "XDG_CONFIG_HOME=$DIR/xdg/config" "XDG_DATA_HOME=$DIR/xdg/share")
if [ "$(id -u)" = 0 ]; then AS_PG=(runuser -u postgres --); else AS_PG=(); fi
DIRECT="127.0.0.1:$PG1_PORT,127.0.0.1:$PG2_PORT/facteur?target_session_attrs=read-write"
OWNER_URL="postgres://postgres@$DIRECT"
APP_DIRECT_URL="postgres://facteur_app@$DIRECT"
APP_BOUNCER_URL="postgres://facteur_app@127.0.0.1:$BOUNCER_PORT/facteur"

say() { echo "cluster: $*" >&2; }

node_port() { # HTTPS port of a facteur node
  case "$1" in
    api1) echo $((BASE + 31)) ;; api2) echo $((BASE + 32)) ;; api3) echo $((BASE + 33)) ;;
    worker1) echo $((BASE + 36)) ;; worker2) echo $((BASE + 37)) ;;
    *) say "no node $1"; exit 2 ;;
  esac
}

alive() { [ -f "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

wait_for() { # wait_for SECONDS DESCRIPTION COMMAND...
  local limit=$1 what=$2; shift 2
  local start=$SECONDS
  until "$@" >/dev/null 2>&1; do
    if [ $((SECONDS - start)) -ge "$limit" ]; then say "gave up waiting for $what (${limit}s)"; return 1; fi
    sleep 1
  done
}

pg_is_primary() { psql -h 127.0.0.1 -p "$1" -U postgres -d facteur -tAc 'select pg_is_in_recovery()' 2>/dev/null | grep -qx f; }
pg_is_standby_streaming() {
  psql "$OWNER_URL" -tAc "select count(*) from pg_stat_replication where sync_state in ('sync','quorum')" 2>/dev/null | grep -qx 1
}

start_autoctl() { # start_autoctl NAME ARGS... : one pg_autoctl process in the background
  local name=$1; shift
  if alive "$DIR/$name.pid"; then return 0; fi
  "${AS_PG[@]}" "${AUTOCTL_ENV[@]}" setsid "$@" >>"$DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$DIR/$name.pid"
}

postgres_up() {
  mkdir -p "$DIR/logs" "$DIR/xdg"
  [ "$(id -u)" = 0 ] && chown postgres "$DIR" "$DIR/logs" "$DIR/xdg"
  if [ ! -f "$DIR/monitor/PG_VERSION" ]; then
    "${AS_PG[@]}" "${AUTOCTL_ENV[@]}" pg_autoctl create monitor --pgdata "$DIR/monitor" \
      --pgport "$MONITOR_PORT" --hostname 127.0.0.1 --auth trust --no-ssl >>"$DIR/logs/monitor.log" 2>&1
    small_postgres "$DIR/monitor"
  fi
  start_autoctl monitor pg_autoctl run --pgdata "$DIR/monitor"
  wait_for 30 "the monitor" psql -h 127.0.0.1 -p "$MONITOR_PORT" -U autoctl_node -d pg_auto_failover -c 'select 1'
  local n port
  for n in 1 2; do
    port=$((BASE + n))
    if [ -f "$DIR/pg$n/PG_VERSION" ]; then
      start_autoctl "pg$n" pg_autoctl run --pgdata "$DIR/pg$n"
    else
      # --run: create, register with the monitor and keep running. The second waits for the first.
      start_autoctl "pg$n" pg_autoctl create postgres --pgdata "$DIR/pg$n" --pgport "$port" \
        --hostname 127.0.0.1 --name "pg$n" --dbname facteur --auth trust --no-ssl \
        --monitor "postgres://autoctl_node@127.0.0.1:$MONITOR_PORT/pg_auto_failover?sslmode=disable" --run
      if [ $n = 1 ]; then wait_for 90 "the primary" pg_is_primary "$port"; fi
    fi
  done
  wait_for 180 "the synchronous standby" pg_is_standby_streaming
  say "PostgreSQL: primary and synchronous standby on 127.0.0.1:$PG1_PORT,$PG2_PORT (monitor $MONITOR_PORT)"
}

small_postgres() { # two cores shared: keep each server small
  "${AS_PG[@]}" bash -c "cat >>'$1/postgresql.conf'" <<CONF
shared_buffers = 32MB
max_connections = 200
CONF
}

tls_up() {
  mkdir -p "$DIR/tls"
  [ -f "$DIR/tls/cert.pem" ] && return 0
  openssl req -x509 -newkey rsa:2048 -nodes -days 30 -subj /CN=localhost \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$DIR/tls/key.pem" -out "$DIR/tls/cert.pem" 2>/dev/null
  cat "$DIR/tls/cert.pem" "$DIR/tls/key.pem" >"$DIR/tls/haproxy.pem"
  openssl rand -hex 32 >"$DIR/tls/encryption.key"
  chmod 600 "$DIR/tls/"*.pem "$DIR/tls/encryption.key"
}

haproxy_up() {
  cat >"$DIR/pg-primary-check.sh" <<CHECK
#!/bin/sh
# haproxy external check (\$3 address, \$4 port): up only on the writable PostgreSQL.
exec $PGBIN/psql -h "\$3" -p "\$4" -U postgres -d facteur -tAc 'select pg_is_in_recovery()' 2>/dev/null | grep -qx f
CHECK
  chmod 755 "$DIR/pg-primary-check.sh"
  local servers="" n
  for n in $API_NODES; do servers="$servers    server $n 127.0.0.1:$(node_port "$n")
"; done
  cat >"$DIR/haproxy.cfg" <<CFG
global
    maxconn 2000
    insecure-fork-wanted
    external-check
    pidfile $DIR/haproxy.pid
defaults
    timeout connect 2s
    timeout client 60s
    timeout server 60s
    timeout check 2s
frontend facteur_https
    mode http
    bind 127.0.0.1:$HA_HTTPS_PORT ssl crt $DIR/tls/haproxy.pem
    option forwardfor
    default_backend facteur_api
backend facteur_api
    mode http
    balance roundrobin
    option httpchk GET /readyz
    http-check expect status 200
    retry-on conn-failure empty-response
    retries 2
    option redispatch
    default-server ssl verify none check check-ssl inter 1s fall 2 rise 2
$servers
# PostgreSQL for pgbouncer: only the primary is up (pg_is_in_recovery() = false).
listen postgres_primary
    mode tcp
    bind 127.0.0.1:$HA_PG_PORT
    timeout client 30m
    timeout server 30m
    option external-check
    external-check path "/usr/bin:/bin"
    external-check command $DIR/pg-primary-check.sh
    default-server check inter 1s fall 2 rise 1 on-marked-down shutdown-sessions
    server pg1 127.0.0.1:$PG1_PORT
    server pg2 127.0.0.1:$PG2_PORT
listen stats
    mode http
    bind 127.0.0.1:$HA_STATS_PORT
    stats enable
    stats uri /
CFG
  if alive "$DIR/haproxy.pid"; then
    haproxy -f "$DIR/haproxy.cfg" -D -sf "$(cat "$DIR/haproxy.pid")"
  else
    haproxy -f "$DIR/haproxy.cfg" -D
  fi
}

pgbouncer_up() {
  mkdir -p "$DIR/pgbouncer"
  # Session pooling: the service prepares named statements per connection and LISTENs (the key
  # cache's revocations); pgbouncer 1.18 keeps neither in transaction mode.
  cat >"$DIR/pgbouncer/pgbouncer.ini" <<INI
[databases]
facteur = host=127.0.0.1 port=$HA_PG_PORT dbname=facteur
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $BOUNCER_PORT
unix_socket_dir =
auth_type = trust
auth_file = $DIR/pgbouncer/userlist.txt
pool_mode = session
max_client_conn = 400
default_pool_size = 100
server_connect_timeout = 5
server_login_retry = 1
logfile = $DIR/logs/pgbouncer.log
pidfile = $DIR/pgbouncer/pgbouncer.pid
admin_users = postgres
; 1.18 refuses the startup parameter "options" (the service's "-c role=facteur_service" and
; "-c synchronous_commit=off"): it is ignored here, and the role is given to the login by
; ALTER ROLE facteur_app SET role (database_up); the fast pool's commits stay synchronous.
ignore_startup_parameters = options,extra_float_digits
INI
  printf '"facteur_app" ""\n"postgres" ""\n' >"$DIR/pgbouncer/userlist.txt"
  [ "$(id -u)" = 0 ] && chown -R postgres "$DIR/pgbouncer" && touch "$DIR/logs/pgbouncer.log" && chown postgres "$DIR/logs/pgbouncer.log"
  alive "$DIR/pgbouncer/pgbouncer.pid" || "${AS_PG[@]}" pgbouncer -d -q "$DIR/pgbouncer/pgbouncer.ini"
}

database_up() {
  psql "$OWNER_URL" -qtAc "do \$\$ begin
    if not exists (select from pg_roles where rolname = 'facteur_app') then
      create role facteur_app login nosuperuser nobypassrls; end if; end \$\$" >/dev/null

  # Right after the standby joins, the primary may still refuse writes for a moment: try again.
  local try
  for try in 1 2 3 4 5 6; do
    DATABASE_URL="$APP_DIRECT_URL" FACTEUR_MIGRATION_DATABASE_URL="$OWNER_URL" \
      node "$ROOT/bin/facteur.js" migrate >>"$DIR/logs/migrate.log" 2>&1 && return 0
    sleep 3
  done
  say "the migrations failed: $DIR/logs/migrate.log"
  return 1
}

bouncer_role() { # after the migrations (they create facteur_service): see pgbouncer_up
  psql "$OWNER_URL" -qtAc "alter role facteur_app set role = 'facteur_service'" >/dev/null
}

node_env() { # the environment of one facteur node
  local name=$1 url=$APP_DIRECT_URL
  case "$name" in api*) url=$APP_BOUNCER_URL ;; esac
  echo "DATABASE_URL=$url"
  echo "FACTEUR_MIGRATION_DATABASE_URL=$OWNER_URL"
  echo "FACTEUR_DATA_DIR=$DIR/$name"
  echo "HOST=127.0.0.1"
  echo "PORT=$(node_port "$name")"
  echo "HTTP_PORT=$(($(node_port "$name") + 10))"
  echo "FACTEUR_PUBLIC_URL=https://127.0.0.1:$HA_HTTPS_PORT"
  echo "FACTEUR_ENCRYPTION_KEY=$(cat "$DIR/tls/encryption.key")"
  echo "FACTEUR_TRUST_PROXY=true"
  echo "FACTEUR_ALLOW_PRIVATE_WEBHOOKS=true"
  echo "FACTEUR_ALLOW_PRIVATE_PLATFORMS=true"
  echo "NODE_EXTRA_CA_CERTS=$DIR/tls/cert.pem"
  echo "FACTEUR_METRICS_TOKEN=cluster-metrics-token-0000"
  echo "FACTEUR_DRAIN_SECONDS=${FACTEUR_CLUSTER_DRAIN_SECONDS:-3}"
  echo "LOG_LEVEL=${LOG_LEVEL:-warn}"
}

start_node() {
  local name=$1 role=api
  case "$name" in worker*) role=worker ;; esac
  node_port "$name" >/dev/null
  alive "$DIR/$name.pid" && return 0
  mkdir -p "$DIR/$name"
  local envs=()
  mapfile -t envs < <(node_env "$name")
  env "${envs[@]}" setsid node "$ROOT/bin/facteur.js" serve --role "$role" >>"$DIR/logs/$name.log" 2>&1 </dev/null &
  echo $! >"$DIR/$name.pid"
}

ready() { curl -sfk "https://127.0.0.1:$1/readyz" | grep -q ready; }

test_key() { # a test company and its key, once; printed again by later starts
  if [ ! -f "$DIR/test-key.json" ]; then
    local company
    company=$(DATABASE_URL="$APP_DIRECT_URL" FACTEUR_MIGRATION_DATABASE_URL="$OWNER_URL" node "$ROOT/bin/facteur.js" company create --name "Cluster SAS" --siren 732829320 |
      node -e 'process.stdin.on("data",d=>process.stdout.write(JSON.parse(d).id))')
    DATABASE_URL="$APP_DIRECT_URL" FACTEUR_MIGRATION_DATABASE_URL="$OWNER_URL" node "$ROOT/bin/facteur.js" key create --company "$company" --env test |
      node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const k=JSON.parse(s);process.stdout.write(JSON.stringify({company:process.argv[1],key:k.secret}))})' "$company" >"$DIR/test-key.json"
    chmod 600 "$DIR/test-key.json"
  fi
}

up() {
  for tool in haproxy pgbouncer pg_autoctl "$PGBIN/postgres"; do
    command -v "$tool" >/dev/null || { say "missing $tool: apt-get install haproxy pgbouncer postgresql-15-auto-failover"; exit 1; }
  done
  mkdir -p "$DIR"
  tls_up
  postgres_up
  haproxy_up
  pgbouncer_up
  database_up
  bouncer_role
  test_key
  local n
  for n in $ALL_NODES; do start_node "$n"; done
  for n in $API_NODES; do wait_for 120 "$n" ready "$(node_port "$n")"; done
  wait_for 30 "haproxy" ready "$HA_HTTPS_PORT"
  node -e 'const k=require(process.argv[1]);console.log(JSON.stringify({url:process.argv[2],company:k.company,test_key:k.key,dir:process.argv[3]}))' \
    "$DIR/test-key.json" "https://127.0.0.1:$HA_HTTPS_PORT" "$DIR"
  say "up: https://127.0.0.1:$HA_HTTPS_PORT (self-signed: $DIR/tls/cert.pem), haproxy stats http://127.0.0.1:$HA_STATS_PORT/"
}

stop_pid() { # stop_pid FILE: TERM, then KILL after 15 s
  local file=$1 pid
  alive "$file" || { rm -f "$file"; return 0; }
  pid=$(cat "$file")
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 30); do kill -0 "$pid" 2>/dev/null || break; sleep 0.5; done
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$file"
}

down() {
  local n
  for n in $ALL_NODES; do stop_pid "$DIR/$n.pid" & done
  wait
  stop_pid "$DIR/pgbouncer/pgbouncer.pid"
  stop_pid "$DIR/haproxy.pid"
  for n in pg2 pg1 monitor; do stop_pid "$DIR/$n.pid"; done
  # A postmaster left by a killed keeper: stop it by its own pid file.
  for n in pg1 pg2 monitor; do
    if [ -f "$DIR/$n/postmaster.pid" ]; then
      "${AS_PG[@]}" "$PGBIN/pg_ctl" -D "$DIR/$n" stop -m fast -w >/dev/null 2>&1 || true
    fi
  done
  say "down (data kept in $DIR; remove it to start afresh)"
}

status() {
  "${AS_PG[@]}" "${AUTOCTL_ENV[@]}" pg_autoctl show state --pgdata "$DIR/monitor" || true
  local n
  for n in $ALL_NODES; do
    if alive "$DIR/$n.pid"; then echo "$n: running (pid $(cat "$DIR/$n.pid"))"; else echo "$n: stopped"; fi
  done
}

export FACTEUR_CLUSTER_DIR="$DIR" FACTEUR_CLUSTER_PORT="$BASE"
case "${1:-up}" in
  up) up ;;
  down) down ;;
  status) status ;;
  start) start_node "$2"; wait_for 120 "$2" bash -c "case $2 in worker*) exit 0;; esac; curl -sfk https://127.0.0.1:$(node_port "$2")/readyz" ;;
  failover) "${AS_PG[@]}" "${AUTOCTL_ENV[@]}" pg_autoctl perform failover --monitor "postgres://autoctl_node@127.0.0.1:$MONITOR_PORT/pg_auto_failover?sslmode=disable" ;;
  *) say "usage: npm run cluster -- [up|down|status|start NAME|failover]"; exit 2 ;;
esac
