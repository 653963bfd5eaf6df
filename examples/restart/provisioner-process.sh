#!/bin/sh
# Starts the provisioner as a background process of the CI job, or restarts it: `restart` is the
# --restart-command of a certification when the job runs the provisioner itself.
#
#   sh provisioner-process.sh start      start it, return once it answers
#   sh provisioner-process.sh restart    stop it, wait until it is gone, start it again, return once it answers
#   sh provisioner-process.sh stop       stop it, return once it is gone
#   sh provisioner-process.sh wait       return once the provisioner answers (after a restart made another way)
#
# PROVISIONER_START     the command that starts the provisioner, e.g. "npm start" (it must keep its operations
#                       in a store that outlives the process: a database, a file)
# PROVISIONER_URL       where it answers, e.g. http://127.0.0.1:8080
# PROVISIONER_PID_FILE  where the process id is kept (default: provisioner.pid)
# PROVISIONER_LOG       where its output goes (default: provisioner.log)
#
# The contract has no health endpoint: the provisioner is up once a read of an operation it never issued
# answers 404. The script reads every 0.2 s, up to a minute, and returns at the first 404: the kit goes on as
# soon as the command returns, and what it sends while the command still runs is judged by
# durability.survives-restart alone.
set -eu
: "${PROVISIONER_URL:?give the URL the provisioner answers on}"
pid_file="${PROVISIONER_PID_FILE:-provisioner.pid}"
log="${PROVISIONER_LOG:-provisioner.log}"

start() {
  : "${PROVISIONER_START:?give the command that starts the provisioner}"
  # A session of its own, so that a stop ends the provisioner with every process its start command began
  # (npm start runs node as its child). Its output goes to the log, not to the restart command's output,
  # which the kit stops reading once the command has exited.
  setsid sh -c "$PROVISIONER_START" >>"$log" 2>&1 </dev/null &
  echo $! >"$pid_file"
  wait_until_it_answers
}

wait_until_it_answers() {
  tries=300
  until [ "$(curl --silent --output /dev/null --write-out '%{http_code}' --max-time 5 \
    "$PROVISIONER_URL/operations/00000000-0000-4000-8000-000000000000")" = 404 ]; do
    tries=$((tries - 1))
    if [ "$tries" -le 0 ]; then echo "the provisioner did not answer at $PROVISIONER_URL within a minute" >&2; exit 1; fi
    sleep 0.2
  done
}

stop() {
  pid=$(cat "$pid_file")
  kill -TERM "-$pid" 2>/dev/null || true
  while kill -0 "-$pid" 2>/dev/null; do sleep 0.1; done
}

case "${1:-}" in
  start) start ;;
  restart) stop && start ;;
  stop) stop ;;
  wait) wait_until_it_answers ;;
  *) echo "usage: $0 start|restart|stop|wait" >&2; exit 2 ;;
esac
