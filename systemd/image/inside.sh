#!/usr/bin/env bash
# Run by build.sh inside the arm64 root (chroot, under qemu-user-static): installs wordtable with
# systemd/install.sh as on Raspberry Pi OS and sets up what a flashed card needs at its first boot.
set -euo pipefail
SRC=/tmp/wordtable-src
export DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8

echo wordtable > /etc/hostname
printf '127.0.0.1\tlocalhost\n127.0.1.1\twordtable\n::1\t\tlocalhost ip6-localhost ip6-loopback\n' > /etc/hosts

# The partitions by label: the same card in any reader or Pi, and the root's file system checked at boot.
cat > /etc/fstab <<'EOF'
# wordtable image: boot firmware (FAT), root and the journal's own data partition (ext4)
LABEL=wt-root   /                   ext4  defaults,noatime,commit=5     0 1
LABEL=WT-BOOT   /boot/firmware      vfat  noauto,x-systemd.automount,x-systemd.idle-timeout=30,noatime,umask=0022  0 2
LABEL=wt-data   /var/lib/wordtable  ext4  defaults,noatime,nodev,nosuid,noexec  0 2
EOF

# Wired network by DHCP (the Pi 3/4's Ethernet, a USB adapter, the emulated machine's virtio NIC).
mkdir -p /etc/systemd/network
cat > /etc/systemd/network/20-wired.network <<'EOF'
[Match]
Name=eth* en*

[Network]
DHCP=yes
MulticastDNS=no
EOF
systemctl enable systemd-networkd.service >/dev/null 2>&1
# Wi-Fi by NetworkManager (wired stays systemd-networkd's): a known network, else the box's own access point,
# kept by wordtable-wifi.service (firmware_host/network/). NM's shared mode runs dnsmasq for the phones.
mkdir -p /etc/NetworkManager/conf.d
cat > /etc/NetworkManager/conf.d/50-wordtable.conf <<'EOF'
[main]
plugins=keyfile

[keyfile]
unmanaged-devices=*,except:type:wifi
path=/var/lib/wordtable/wifi-profiles

[device]
wifi.scan-rand-mac-address=no
EOF
# The root is read-only under a RAM overlay (below): NM's profiles (the networks added from the page, the
# box's access point) are kept on wt-data, in a directory of root's own (the table's service cannot read it).
install -d -m 0700 -o root -g root /var/lib/wordtable/wifi-profiles
systemctl enable NetworkManager.service >/dev/null 2>&1 || true
systemctl disable NetworkManager-wait-online.service >/dev/null 2>&1 || true
# I2C from user space (the OLED): the i2c-dev character devices.
echo i2c-dev > /etc/modules-load.d/wordtable-i2c.conf

# The service, exactly as on Raspberry Pi OS: its user and groups, the venv from the pinned lock, the unit, and
# (NetworkManager being here) wordtable-wifi.service.
bash "$SRC/systemd/install.sh" --root / --profile "$SRC/hw/profiles/default.toml"
systemctl enable wordtable.service >/dev/null 2>&1 || true
# A fresh card holds one release and no previous one: what --reuse rebuilds left of earlier ones goes (78 MiB each).
current=$(readlink /opt/wordtable/current)
for release in /opt/wordtable/releases/*; do [ "releases/${release##*/}" = "$current" ] || rm -rf "$release"; done
rm -f /opt/wordtable/previous
if [ -f /etc/avahi/services/wordtable.service ]; then systemctl enable avahi-daemon.service >/dev/null 2>&1 || true; fi

# The boot firmware's kernel command line names the root by label (raspi-firmware writes cmdline.txt from
# ROOTPART at every kernel update); its hook runs from the initramfs update below.
sed -i 's|^#\?ROOTPART=.*|ROOTPART="LABEL=wt-root"|' /etc/default/raspi-firmware
grep -q '^ROOTPART=' /etc/default/raspi-firmware || echo 'ROOTPART="LABEL=wt-root"' >> /etc/default/raspi-firmware
# No serial console: the Pi's UART is the RDM6300 card reader's (the emulated machine passes its own).
sed -i 's|^#\?CONSOLES=.*|CONSOLES="tty1"|' /etc/default/raspi-firmware
grep -q '^CONSOLES=' /etc/default/raspi-firmware || echo 'CONSOLES="tty1"' >> /etc/default/raspi-firmware
# The read-only root: overlayroot's initramfs script mounts the root read-only at /media/root-ro and a RAM
# overlay over it as /; recurse=0 leaves the other partitions (wt-data, the boot partition) as they are. The
# root must come up read-only from the initramfs (`ro` after the hook's own `rw`: the last one counts).
echo 'ro' > /etc/default/raspi-extra-cmdline
# The initramfs checks the root before it mounts it (systemd cannot, under the overlay): its fsck hook reads
# the root's type from the device, which the build machine does not have, so it is named; busybox's tools
# for overlayroot's script.
mkdir -p /etc/initramfs-tools/conf.d
printf 'FSTYPE=ext4\nBUSYBOX=y\n' > /etc/initramfs-tools/conf.d/wordtable
cat > /etc/overlayroot.local.conf <<'EOF'
# wordtable: the root read-only under a RAM overlay (systemd/image/README.md); `overlayroot=disabled` on the
# kernel command line boots it writable for maintenance, `overlayroot-chroot` writes it from a running box.
overlayroot="tmpfs:recurse=0"
EOF
# The initramfs once (build.sh held update-initramfs back while the packages went in: under emulation each
# run takes minutes, and the kernel, udev and zstd would each have asked for one); its post-update hook is
# raspi-firmware's, which copies kernel, initrd and device trees to /boot/firmware.
[ "${WORDTABLE_REUSE:-0}" = 1 ] || update-initramfs -c -k all  # a --reuse rebuild keeps the kernel's

# What the read-only root needs. The machine id is fixed here, once per build (a --reuse rebuild keeps it):
# systemd would otherwise make one at every boot in the RAM overlay, each boot a "first boot" (presets applied
# again); the box's access point is named from it once and then kept on wt-data (wifi-ap.json). The system's
# journal stays in RAM (the game's journal is wt-data's); no random seed from the build in the image (each
# boot's is kept in RAM; the Pi has a hardware RNG). /opt/wordtable is the root's own file system
# (wordtable-releases.service), written by updates only.
if ! grep -qE '^[0-9a-f]{32}$' /etc/machine-id 2>/dev/null; then
    python3 -c 'import uuid; print(uuid.uuid4().hex)' > /etc/machine-id
fi
rm -f /var/lib/systemd/random-seed
mkdir -p /etc/systemd/journald.conf.d
printf '[Journal]\nStorage=volatile\nRuntimeMaxUse=16M\n' > /etc/systemd/journald.conf.d/50-wordtable.conf
install -m 0644 "$SRC/systemd/image/wordtable-releases.service" /etc/systemd/system/wordtable-releases.service
systemctl enable wordtable-releases.service >/dev/null 2>&1

# No root password; log in only on the console, after setting one (`passwd`) — a maker's choice.
passwd -l root >/dev/null
apt-get clean
rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /root/.cache
