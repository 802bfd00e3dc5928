# Sourced by .ci/run and .ci/arm64: `timed LABEL CMD...` runs CMD and then prints how long it took (and its
# exit status when it failed), returning CMD's status.
timed() {
    local label=$1 start=$SECONDS status=0
    shift
    "$@" || status=$?
    printf '[%s] %s: %d min %02d s%s\n' "$(date -u +%H:%M:%S)" "$label" $(((SECONDS - start) / 60)) \
        $(((SECONDS - start) % 60)) "$([ "$status" = 0 ] || echo " (exit $status)")"
    return "$status"
}
