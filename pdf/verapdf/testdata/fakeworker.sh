#!/bin/sh
# A stand-in for `java -jar verapdf-worker.jar` in the supervisor's tests: the
# mode is the jar's file name (hang.jar, slow.jar, garbage.jar, noready.jar, restart.jar).
mode=ok
for a in "$@"; do
  case "$a" in *.jar) mode=$(basename "$a" .jar) ;; esac
done
if [ "$mode" = noready ]; then echo "something else"; exit 1; fi
echo '{"ready":true,"validator":{"name":"veraPDF","version":"fake"}}'
while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
  case "$line" in *'"op":"warm"'*)
    echo "{\"id\":$id,\"ok\":true,\"validator\":{\"name\":\"veraPDF\",\"version\":\"fake\"}}"
    continue ;;
  esac
  case "$line" in *'"op":"ping"'*)
    [ "$mode" = hang ] || echo "{\"id\":$id,\"ok\":true,\"validator\":{\"name\":\"veraPDF\",\"version\":\"fake\"}}"
    continue ;;
  esac
  case "$mode" in
    hang) ;;
    garbage) echo "not json" ;;
    restart)
      echo "{\"id\":$id,\"error\":{\"kind\":\"timeout\",\"message\":\"did not stop\"},\"restarting\":true}"
      exit 3 ;;
    *)
      [ "$mode" = slow ] && sleep 0.3
      echo "{\"id\":$id,\"compliant\":true,\"flavour\":\"3b\",\"checked_flavour\":\"3b\",\"failed_rules\":[],\"validator\":{\"name\":\"veraPDF\",\"version\":\"fake\"}}" ;;
  esac
done
