#!/bin/sh
# Test engine for the arena: answers START, then on its first move request
# starts a child process (its pid written to the file named by $1) and never
# answers. The arena must lose it on time and kill the whole process group.
pidfile="$1"
while IFS= read -r line; do
  line=$(printf '%s' "$line" | tr -d '\r')
  case "$line" in
    START*|RECTSTART*) echo OK ;;
    BEGIN|TURN*|DONE)
      sleep 300 &
      echo "$!" > "$pidfile"
      ;;
    END) exit 0 ;;
  esac
done
