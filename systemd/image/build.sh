#!/usr/bin/env bash
# Build a flashable SD-card image of wordtable for the Raspberry Pi 3, 4 and Zero 2 W from Debian's arm64
# packages (Bookworm). Run as root on any Debian machine (x86-64 is fine: the arm64 steps run under
# qemu-user-static):
#
#   sudo bash systemd/image/build.sh                      writes build/wordtable.img (2 GiB, sparse)
#   sudo bash systemd/image/build.sh --out FILE --size 3G --suite bookworm --mirror URL --keep-root DIR
#
# Then flash it: `sudo dd if=build/wordtable.img of=/dev/sdX bs=4M conv=fsync status=progress`
# (or Raspberry Pi Imager, "Use custom"). The box boots into the sand timer. See systemd/image/README.md.
#
# What is in it: Debian's kernel (linux-image-arm64) and the Pi's boot firmware (raspi-firmware, from
# non-free-firmware), systemd with systemd-networkd (wired DHCP), the project in /opt/wordtable/venv installed
# by systemd/install.sh exactly as on Raspberry Pi OS (its pinned, hash-checked requirements; lgpio from PyPI,
# because Debian has no python3-lgpio), the unit enabled, I2C and the UART enabled in config.txt, and three
# partitions: WT-BOOT (FAT, /boot/firmware), wt-root (ext4, /) and wt-data (ext4, /var/lib/wordtable: the
# journal on its own partition, so a full or damaged data partition leaves the system bootable).
# Needs: mmdebstrap, qemu-user-static + binfmt-support, e2fsprogs (mkfs.ext4 -d), dosfstools, mtools, fdisk.
# No loop devices and no mounts: the file systems are made from directories.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT="$SRC/build/wordtable.img"
SIZE=2G
SUITE=bookworm
MIRROR=http://deb.debian.org/debian
KEEP_ROOT=""
REUSE=0
BOOT_MB=256
DATA_MB=256

usage() { sed -n '2,9p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case "$1" in
        --out) OUT=${2:?--out needs a file}; shift ;;
        --size) SIZE=${2:?--size needs a size like 2G}; shift ;;
        --suite) SUITE=${2:?}; shift ;;
        --mirror) MIRROR=${2:?}; shift ;;
        --keep-root) KEEP_ROOT=${2:?--keep-root needs a directory}; shift ;;
        --reuse) REUSE=1 ;;  # with --keep-root: make the image from the root kept by an earlier build
        -h|--help) usage; exit 0 ;;
        *) echo "build.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
[ "$(id -u)" = 0 ] || { echo "build.sh: run as root (mmdebstrap makes device nodes and owners)" >&2; exit 1; }
for tool in mmdebstrap mkfs.ext4 mkfs.vfat mcopy sfdisk; do
    command -v "$tool" >/dev/null || { echo "build.sh: $tool is missing: apt install mmdebstrap e2fsprogs dosfstools mtools fdisk qemu-user-static binfmt-support" >&2; exit 1; }
done
if [ "$(dpkg --print-architecture)" != arm64 ] && [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    echo "build.sh: no binfmt entry for arm64: apt install qemu-user-static binfmt-support" >&2; exit 1
fi

started=$(date +%s)
stage() { printf '== %s (%ds)\n' "$*" "$(( $(date +%s) - started ))"; }
WORK=$(mktemp -d /var/tmp/wordtable-image.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
ROOT=${KEEP_ROOT:-$WORK/root}
if [ "$REUSE" = 1 ] && [ -x "$ROOT/opt/wordtable/venv/bin/wordtable" ]; then :; else
    REUSE=0; rm -rf "$ROOT"; mkdir -p "$ROOT"
fi
mkdir -p "$(dirname "$OUT")"

# The checkout as git would export it (no venv, caches or build output).
mkdir -p "$WORK/src"
if git -C "$SRC" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$SRC" ls-files -z --cached --others --exclude-standard \
        | (cd "$SRC" && xargs -0 tar --no-recursion -cf - 2>/dev/null) | tar -xf - -C "$WORK/src"
else
    tar -C "$SRC" --exclude=.venv --exclude=build --exclude=__pycache__ -cf - . | tar -xf - -C "$WORK/src"
fi
# pip inside the root trusts what this machine trusts (a site's own CA, a proxy's), for the build only:
# the file goes with /tmp/wordtable-src, the image keeps Debian's CA list.
cp /etc/ssl/certs/ca-certificates.crt "$WORK/src/.build-ca.crt" 2>/dev/null || : > "$WORK/src/.build-ca.crt"
VERSION=$(cd "$SRC" && git describe --always --dirty 2>/dev/null || echo unknown)

PACKAGES=(
    systemd systemd-sysv udev dbus kmod iproute2 netbase   # systemd-networkd does the network
    linux-image-arm64 raspi-firmware initramfs-tools zstd
    python3 python3-venv ca-certificates
    e2fsprogs dosfstools fdisk
    i2c-tools
    wngerman wamerican dict-de-en   # the word lists and the reveal's base forms, as install.sh has them
    avahi-daemon                    # the table page's mDNS announcement (wordtable-avahi.service)
    network-manager wpasupplicant dnsmasq-base iw   # Wi-Fi: a known network, else the box's own access point
    firmware-brcm80211              # the Zero 2 W's and Pi 3/4's Wi-Fi chip (brcmfmac)
    overlayroot busybox             # the read-only root: a RAM overlay over it, set up in the initramfs (whose
                                    # script needs busybox's grep and sh there)
)
INCLUDE=$(IFS=,; echo "${PACKAGES[*]}")

if [ "$REUSE" = 1 ]; then
stage "the root kept in $ROOT: the project from this checkout again"
rm -rf "$ROOT/tmp/wordtable-src"; mkdir -p "$ROOT/tmp/wordtable-src"; cp -a "$WORK/src/." "$ROOT/tmp/wordtable-src/"
mkdir -p "$ROOT/var/lib/wordtable"
chroot "$ROOT" env -u PIP_FIND_LINKS PIP_CERT=/tmp/wordtable-src/.build-ca.crt REQUESTS_CA_BUNDLE=/tmp/wordtable-src/.build-ca.crt \
    SSL_CERT_FILE=/tmp/wordtable-src/.build-ca.crt \
    WORDTABLE_REUSE=1 bash /tmp/wordtable-src/systemd/image/inside.sh >"$WORK/inside.log" 2>&1 \
    || { tail -40 "$WORK/inside.log" >&2; echo "build.sh: inside.sh failed (log above)" >&2; exit 1; }
rm -rf "$ROOT/tmp/wordtable-src"
else
stage "debian $SUITE arm64 root ($MIRROR)"
mmdebstrap --arch=arm64 --variant=minbase --mode=root --format=directory \
    --components=main,non-free-firmware \
    --include="$INCLUDE" \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --essential-hook='mkdir -p "$1/boot/firmware" "$1/etc/default"' \
    --essential-hook="printf '%s\n' 'dtparam=i2c_arm=on' 'dtparam=i2c_arm_baudrate=400000' 'enable_uart=1' > \"\$1/etc/default/raspi-firmware-custom\"" \
    --essential-hook='chroot "$1" dpkg-divert --quiet --local --rename --add /usr/sbin/update-initramfs && ln -s /bin/true "$1/usr/sbin/update-initramfs"' \
    --customize-hook='rm "$1/usr/sbin/update-initramfs" && chroot "$1" dpkg-divert --quiet --local --rename --remove /usr/sbin/update-initramfs' \
    --customize-hook="mkdir -p \"\$1/tmp/wordtable-src\" && cp -a '$WORK/src/.' \"\$1/tmp/wordtable-src/\"" \
    --customize-hook='chroot "$1" env -u PIP_FIND_LINKS PIP_CERT=/tmp/wordtable-src/.build-ca.crt REQUESTS_CA_BUNDLE=/tmp/wordtable-src/.build-ca.crt SSL_CERT_FILE=/tmp/wordtable-src/.build-ca.crt bash /tmp/wordtable-src/systemd/image/inside.sh' \
    --customize-hook='rm -rf "$1/tmp/wordtable-src"' \
    "$SUITE" "$ROOT" "$MIRROR" >"$WORK/mmdebstrap.log" 2>&1 \
    || { tail -40 "$WORK/mmdebstrap.log" >&2; echo "build.sh: mmdebstrap failed (log above)" >&2; exit 1; }
fi
echo "$VERSION" > "$ROOT/opt/wordtable/image-version"

stage "file systems"
boot_bytes=$((BOOT_MB * 1024 * 1024)); data_bytes=$((DATA_MB * 1024 * 1024))
total=$(numfmt --from=iec "$SIZE")
root_bytes=$((total - boot_bytes - data_bytes - 2 * 1024 * 1024))
used=$(du -sb --exclude=./boot/firmware --exclude=./var/lib/wordtable "$ROOT" | cut -f1)
if [ "$root_bytes" -lt $((used * 5 / 4)) ]; then
    echo "build.sh: --size $SIZE is too small for a root of $((used / 1048576)) MiB" >&2; exit 1
fi
# /boot/firmware and /var/lib/wordtable are their own partitions: their contents leave the root's tree.
mkdir -p "$WORK/bootdir" "$WORK/data" "$ROOT/var/lib/wordtable"  # the unit's StateDirectory: made at its start
if [ "$REUSE" = 1 ]; then cp -a "$ROOT"/boot/firmware/. "$WORK/bootdir/"; else mv "$ROOT"/boot/firmware/* "$WORK/bootdir/"; fi
cp -a "$ROOT/var/lib/wordtable/." "$WORK/data/"
find "$ROOT/var/lib/wordtable" -mindepth 1 -delete
chown --reference="$ROOT/var/lib/wordtable" "$WORK/data"; chmod --reference="$ROOT/var/lib/wordtable" "$WORK/data"
mkfs.vfat -n WT-BOOT -C "$WORK/boot.fat" $((boot_bytes / 1024)) >/dev/null
mcopy -s -i "$WORK/boot.fat" "$WORK"/bootdir/* ::/
mkfs.ext4 -q -F -L wt-data -d "$WORK/data" "$WORK/data.ext4" $((data_bytes / 1024))k
mkfs.ext4 -q -F -L wt-root -d "$ROOT" "$WORK/root.ext4" $((root_bytes / 1024))k
if [ -n "$KEEP_ROOT" ] && [ "$REUSE" = 0 ]; then cp -a "$WORK/bootdir/." "$ROOT/boot/firmware/"; fi

stage "image"
rm -f "$OUT"; truncate -s "$SIZE" "$OUT"
sfdisk -q "$OUT" <<EOF
label: dos
start=2048, size=$((boot_bytes / 512)), type=c, bootable
size=$((root_bytes / 512)), type=83
size=$((data_bytes / 512)), type=83
EOF
offsets=$(sfdisk -J "$OUT" | python3 -c 'import json,sys; print(*[p["start"] for p in json.load(sys.stdin)["partitiontable"]["partitions"]])')
read -r p1 p2 p3 <<<"$offsets"
dd if="$WORK/boot.fat" of="$OUT" bs=512 seek="$p1" conv=notrunc,sparse status=none
dd if="$WORK/root.ext4" of="$OUT" bs=512 seek="$p2" conv=notrunc,sparse status=none
dd if="$WORK/data.ext4" of="$OUT" bs=512 seek="$p3" conv=notrunc,sparse status=none
stage "done"
printf 'image: %s\nsize: %s (%s MiB on disk, sparse), root %s MiB used, version %s\nbuild time: %d s\n' \
    "$OUT" "$SIZE" "$(( $(du -B1 "$OUT" | cut -f1) / 1048576 ))" "$((used / 1048576))" "$VERSION" \
    "$(( $(date +%s) - started ))"
