#!/usr/bin/env bash
# Install (or remove) wordtable as a service on Raspberry Pi OS. Run as root from a checkout:
#
#   sudo bash systemd/install.sh              install, enable and start
#   sudo bash systemd/install.sh --dry-run    print every step and what it would run; change nothing
#   sudo bash systemd/install.sh --uninstall  remove everything but the journal (/var/lib/wordtable)
#        bash systemd/install.sh --root DIR   install into DIR as if it were / (tests, image builds):
#                                             nothing is started, udev and systemd are not reloaded
#
# Every step checks first and acts only when something is missing or different, so a second run
# changes nothing. Other options: --profile FILE (the board profile that says whether I2C and the UART
# are needed; default hw/profiles/default.toml), --python CMD (the interpreter for the venv; python3),
# --league-broker ADDR (the league's MQTT broker when it is beyond the local networks: its IP address or
# network, allowed by a drop-in of the unit; a broker on the LAN needs none; docs/league.md).
# The program goes into /opt/wordtable/releases/VERSION-srcDIGEST, pointed to by /opt/wordtable/current;
# later releases come by `wordtable update FILE` (systemd/README.md, "Updates").
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
ROOT=""
DRY_RUN=0
UNINSTALL=0
PROFILE="$SRC/hw/profiles/default.toml"
PYTHON=python3
LEAGUE_BROKER=""
WIFI=1
SERVICE_USER=wordtable
GROUPS_NEEDED=(gpio i2c input)  # serial card readers: group wordtable, by the udev rule; input: keyboards
APT_PACKAGES=(python3-venv python3-pip python3-lgpio wngerman wamerican dict-de-en)  # word lists; Ding: the reveal's base forms
I2C_SPEED=400000  # the OLED's bus: 400 kHz fast mode (the Pi's default is 100 kHz)

usage() { sed -n '2,18p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; }

while [ $# -gt 0 ]; do
    case "$1" in
        --dry-run) DRY_RUN=1 ;;
        --uninstall) UNINSTALL=1 ;;
        --root) ROOT=$(cd "${2:?--root needs a directory}" && pwd); shift ;;
        --profile) PROFILE=${2:?--profile needs a file}; shift ;;
        --python) PYTHON=${2:?--python needs a command}; shift ;;
        --league-broker) LEAGUE_BROKER=${2:?--league-broker needs an IP address}; shift ;;
        --no-wifi) WIFI=0 ;;
        -h|--help) usage; exit 0 ;;
        *) echo "install.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done

PREFIX="$ROOT/opt/wordtable"
UNIT_DIR="$ROOT/etc/systemd/system"
UNIT="$UNIT_DIR/wordtable.service"
VENV="$PREFIX/venv"  # before releases (issue 41): the one environment; now a link to current
RELEASES="$PREFIX/releases"
CURRENT="$PREFIX/current"
PREVIOUS="$PREFIX/previous"
VERSION=$(sed -n 's/^version = "\(.*\)"$/\1/p' "$SRC/pyproject.toml" | head -n 1)
GUARD="$ROOT/usr/local/lib/wordtable/guard"
UPDATE_UNITS=(wordtable-update.path wordtable-update.service)
UPDATE_WANTS="$UNIT_DIR/multi-user.target.wants/wordtable-update.path"
STAMP="$PREFIX/installed-source.sha256"
WANTS_LINK="$UNIT_DIR/multi-user.target.wants/wordtable.service"
LEAGUE_DROPIN="$UNIT_DIR/wordtable.service.d/league.conf"
UDEV_RULE="$ROOT/etc/udev/rules.d/99-wordtable-reader.rules"
SCANNER_RULE="$ROOT/etc/udev/rules.d/98-wordtable-scanner.rules"
POLKIT_RULE="$ROOT/etc/polkit-1/rules.d/50-wordtable-poweroff.rules"
AVAHI_SERVICE="$ROOT/etc/avahi/services/wordtable.service"
WIFI_UNIT="$UNIT_DIR/wordtable-wifi.service"
WIFI_WANTS="$UNIT_DIR/multi-user.target.wants/wordtable-wifi.service"
CONFIG_DIR="$ROOT/etc/wordtable"
STATE_DIR="$ROOT/var/lib/wordtable"
CHANGED=0
ROOT_OPT=()  # for useradd & co.: operate on the root's /etc
[ -n "$ROOT" ] && ROOT_OPT=(--root "$ROOT")

step() { printf '== %s\n' "$*"; }
ok() { printf '   ok: %s\n' "$*"; }
note() { printf '   note: %s\n' "$*"; }
# act CMD...: run a changing command (or, with --dry-run, say that it would).
act() {
    CHANGED=$((CHANGED + 1))
    if [ "$DRY_RUN" = 1 ]; then
        printf '   would run:'; printf ' %q' "$@"; printf '\n'
    else
        printf '   run:'; printf ' %q' "$@"; printf '\n'
        "$@"
    fi
}
in_root() { [ -n "$ROOT" ]; }

user_exists() { grep -q "^$SERVICE_USER:" "$ROOT/etc/passwd" 2>/dev/null; }
group_exists() { grep -q "^$1:" "$ROOT/etc/group" 2>/dev/null; }
in_group() { grep -Eq "^$1:[^:]*:[^:]*:(.*,)?$SERVICE_USER(,.*)?$" "$ROOT/etc/group" 2>/dev/null; }
installed_pkg() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
# offered_pkg PKG: true when the system's package lists have a candidate for PKG.
offered_pkg() { apt-cache policy "$1" 2>/dev/null | grep -q '^ *Candidate: [^(]'; }

# network_manager: true when NetworkManager is the system's network stack (Raspberry Pi OS since Bookworm,
# the image): the box's own access point needs it.
network_manager() { [ -x "$ROOT/usr/sbin/NetworkManager" ]; }
# NetworkManager's shared mode (the access point's DHCP for the phones) runs dnsmasq; iw lists the stations.
if [ "$WIFI" = 1 ] && network_manager; then APT_PACKAGES+=(dnsmasq-base iw); fi

# A digest of what pip would install from the checkout, so an unchanged checkout is not reinstalled.
source_digest() {
    (cd "$SRC" && find pyproject.toml firmware_host hw drivers -type f \
        ! -path '*/__pycache__/*' ! -name '*.pyc' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum) \
        | sha256sum | cut -d' ' -f1
}

# profile_bus NAME: true when the profile's [buses] section enables NAME.
profile_bus() {
    awk -v key="$1" '
        /^\[/ { section = $0 }
        section == "[buses]" && $1 == key { sub(/#.*/, ""); if ($0 ~ /= *true/) found = 1 }
        END { exit found ? 0 : 1 }' "$PROFILE"
}

# scanner_rules: the udev rules for the profile's keyboard-mode scanners ([[readers]] kind = "hid" with a
# usb = "VID:PID"): a stable name /dev/input/wordtable-NAME, the service's group alone, and no desktop.
scanner_rules() {
    python3 - "$PROFILE" <<'PY'
import re, sys, tomllib
with open(sys.argv[1], "rb") as f:
    readers = tomllib.load(f).get("readers", [])
for reader in readers:
    usb = str(reader.get("usb", ""))
    name = re.sub(r"[^A-Za-z0-9_-]", "-", str(reader.get("name", "scanner")))
    if reader.get("kind") == "hid" and re.fullmatch(r"[0-9a-fA-F]{4}:[0-9a-fA-F]{4}", usb):
        vid, pid = usb.lower().split(":")
        print(f'# reader "{name}": a barcode scanner in keyboard mode ({vid}:{pid})')
        print(f'SUBSYSTEM=="input", KERNEL=="event*", ATTRS{{idVendor}}=="{vid}", ATTRS{{idProduct}}=="{pid}", '
              f'SYMLINK+="input/wordtable-{name}", GROUP="wordtable", MODE="0660", ENV{{LIBINPUT_IGNORE_DEVICE}}="1"')
PY
}

# boot_config: the firmware's config.txt (Bookworm: /boot/firmware; before: /boot); fails when there is none.
boot_config() {
    local path
    for path in "$ROOT/boot/firmware/config.txt" "$ROOT/boot/config.txt"; do
        if [ -f "$path" ]; then echo "$path"; return 0; fi
    done
    return 1
}

# append_lines FILE LINE...: add lines at the end of FILE.
append_lines() {
    local file=$1
    shift
    printf '%s\n' "$@" >> "$file"
}

# install_file SOURCE TARGET MODE: copy when missing or different.
install_file() {
    if [ -f "$2" ] && cmp -s "$1" "$2"; then
        ok "$2 is up to date"
        return 1
    fi
    act install -D -m "$3" "$1" "$2"
}

# ---- install ---------------------------------------------------------------------------------------

do_packages() {
    step "apt packages: ${APT_PACKAGES[*]}"
    local missing=() pkg
    for pkg in "${APT_PACKAGES[@]}"; do installed_pkg "$pkg" || missing+=("$pkg"); done
    if [ ${#missing[@]} -eq 0 ]; then ok "installed"; return; fi
    if in_root; then
        note "installing into a root: install ${missing[*]} there yourself (python3-lgpio: Raspberry Pi OS only)"
        return
    fi
    act apt-get update
    if [[ " ${missing[*]} " == *" python3-lgpio "* ]] && ! offered_pkg python3-lgpio; then
        # Raspberry Pi OS's archive has python3-lgpio, Debian's has not: lgpio then comes from PyPI with the pi
        # extra (systemd/requirements.lock, 64-bit). Its wheel there is for Python 3.11 only; pip builds it on
        # other Pythons (Debian 13: 3.13), which takes swig and a C compiler.
        local kept=()
        for pkg in "${missing[@]}"; do [ "$pkg" = python3-lgpio ] || kept+=("$pkg"); done
        missing=("${kept[@]}")
        if [ "$(uname -m)" = aarch64 ]; then
            for pkg in swig gcc libc6-dev python3-dev; do installed_pkg "$pkg" || missing+=("$pkg"); done
        fi
        note "python3-lgpio is not in this system's archive (Debian): lgpio comes from PyPI (the pi extra)"
        [ ${#missing[@]} -gt 0 ] || return 0
    fi
    act apt-get install -y --no-install-recommends "${missing[@]}"
}

do_user() {
    step "user $SERVICE_USER in groups ${GROUPS_NEEDED[*]}"
    local group
    for group in "${GROUPS_NEEDED[@]}"; do
        group_exists "$group" || act groupadd "${ROOT_OPT[@]}" --system "$group"
    done
    if user_exists; then
        ok "user $SERVICE_USER exists"
    else
        act useradd "${ROOT_OPT[@]}" --system --user-group --home-dir /var/lib/wordtable --no-create-home \
            --shell /usr/sbin/nologin --comment "wordtable appliance" \
            --groups "$(IFS=,; echo "${GROUPS_NEEDED[*]}")" "$SERVICE_USER"
        return
    fi
    for group in "${GROUPS_NEEDED[@]}"; do
        if in_group "$group"; then ok "in group $group"; else act usermod "${ROOT_OPT[@]}" -aG "$group" "$SERVICE_USER"; fi
    done
}

# point LINK TARGET: make the symlink LINK point to TARGET by rename(2), so it is never missing.
point() {
    ln -sfn "$2" "$1.new"
    mv -fT "$1.new" "$1"
}

do_release() {
    local digest release dir current
    digest=$(source_digest)
    release="$VERSION-src${digest:0:10}"
    dir="$RELEASES/$release"
    step "virtual environment $dir (release $release, with system site packages, for python3-lgpio)"
    if [ -x "$dir/bin/python" ]; then
        ok "exists"
    else
        act "$PYTHON" -m venv --system-site-packages "$dir"
    fi
    step "package wordtable[pi] from $SRC (dependencies from systemd/requirements.lock)"
    current=$(readlink "$CURRENT" 2>/dev/null || true)
    if [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$digest" ] && [ "$current" = "releases/$release" ]; then
        ok "installed from this checkout ($digest)"
        return
    fi
    # The dependencies exactly as locked (hashes checked), then the package itself without resolving again.
    act "$dir/bin/python" -m pip install --quiet --no-cache-dir --require-hashes -r "$SRC/systemd/requirements.lock"
    act "$dir/bin/python" -m pip install --quiet --no-cache-dir --no-deps --no-build-isolation "$SRC"
    if [ "$DRY_RUN" = 0 ]; then echo "$digest" > "$STAMP"; fi
    PACKAGE_CHANGED=1
    step "the pointer $CURRENT to releases/$release (the one before it: previous)"
    if [ -n "$current" ] && [ "$current" != "releases/$release" ]; then act point "$PREVIOUS" "$current"; fi
    act point "$CURRENT" "releases/$release"
}

do_guard() {
    step "the start guard $GUARD (back to the previous release when a new one fails to start twice)"
    install_file "$SRC/systemd/wordtable-guard" "$GUARD" 0755 || true
}

# The single environment of old installs (/opt/wordtable/venv) becomes a link to current; after the
# unit's restart, so that the running service never loses its files.
do_migrate() {
    step "the old environment $VENV: a link to current"
    if [ -L "$VENV" ]; then ok "a link"; return; fi
    if [ -d "$VENV" ]; then act rm -rf -- "$VENV"; fi
    act ln -s current "$VENV"
}

do_buses() {
    step "I2C and UART as the profile $(basename "$PROFILE") needs"
    if ! command -v raspi-config >/dev/null; then
        note "raspi-config not found (not Raspberry Pi OS): enable I2C and the UART yourself (see systemd/README.md)"
        return
    fi
    if in_root; then note "installing into a root: raspi-config changes the running system, skipped"; return; fi
    # raspi-config nonint get_*: 0 = enabled, 1 = disabled.
    if profile_bus i2c; then
        if [ "$(raspi-config nonint get_i2c)" = 0 ]; then ok "I2C on"; else act raspi-config nonint do_i2c 0; REBOOT=1; fi
    fi
    if profile_bus uart; then
        if [ "$(raspi-config nonint get_serial_hw)" = 0 ]; then ok "UART on"; else
            act raspi-config nonint do_serial_hw 0; REBOOT=1
        fi
        if [ "$(raspi-config nonint get_serial_cons)" = 1 ]; then ok "no login console on the UART"; else
            act raspi-config nonint do_serial_cons 1; REBOOT=1
        fi
    fi
}

do_i2c_speed() {
    step "I2C bus at $((I2C_SPEED / 1000)) kHz for the OLED (dtparam=i2c_arm_baudrate=$I2C_SPEED)"
    if ! profile_bus i2c; then ok "the profile uses no I2C"; return; fi
    local config current
    if ! config=$(boot_config); then
        note "no config.txt found: add dtparam=i2c_arm_baudrate=$I2C_SPEED to it yourself (systemd/README.md)"
        return
    fi
    current=$(sed -n 's/^[[:space:]]*dtparam=i2c_arm_baudrate=\([0-9]*\).*/\1/p' "$config" | tail -n 1)
    if [ "$current" = "$I2C_SPEED" ]; then ok "$config has it"; return; fi
    if [ -n "$current" ]; then
        note "$config sets i2c_arm_baudrate=$current: kept (your choice; systemd/README.md says when 400 kHz is safe)"
        return
    fi
    act append_lines "$config" "" \
        "# wordtable: the OLED's I2C bus at 400 kHz (back to the default: change it to 100000, or delete" \
        "# both lines and reboot; install.sh keeps any value you set here)" \
        "[all]" "dtparam=i2c_arm_baudrate=$I2C_SPEED"
    REBOOT=1
}

do_rules() {
    step "udev rule: stable names for the card reader and scanner"
    if install_file "$SRC/systemd/99-wordtable-reader.rules" "$UDEV_RULE" 0644 && ! in_root \
        && command -v udevadm >/dev/null; then
        act udevadm control --reload-rules
        act udevadm trigger --subsystem-match=tty
    fi
    step "udev rule: the profile's keyboard-mode scanners (kind \"hid\", by usb VID:PID)"
    local rules
    rules=$(scanner_rules) || { note "cannot read $PROFILE with python3 (3.11+): no scanner rule"; rules=""; }
    if [ -z "$rules" ]; then
        if [ -e "$SCANNER_RULE" ]; then act rm -f -- "$SCANNER_RULE"; else ok "none configured"; fi
    else
        local generated
        generated=$(mktemp)
        { echo "# wordtable: keyboard-mode scanners of $(basename "$PROFILE"), written by systemd/install.sh"
          echo "$rules"; } > "$generated"
        if install_file "$generated" "$SCANNER_RULE" 0644 && ! in_root && command -v udevadm >/dev/null; then
            act udevadm control --reload-rules
            act udevadm trigger --subsystem-match=input
        fi
        rm -f "$generated"
    fi
    step "polkit rule: user $SERVICE_USER may power the machine off"
    install_file "$SRC/systemd/50-wordtable-poweroff.rules" "$POLKIT_RULE" 0644 || true
    step "avahi service: the table page announced over mDNS"
    install_file "$SRC/systemd/wordtable-avahi.service" "$AVAHI_SERVICE" 0644 || true
}

# keep_running UNIT CHANGED: start UNIT, or restart it when it runs and its unit (CHANGED=1) or the package changed.
keep_running() {
    if ! systemctl is-active --quiet "$1" 2>/dev/null; then
        act systemctl start "$1"
    elif [ "$2" = 1 ] || [ "${PACKAGE_CHANGED:-0}" = 1 ]; then
        act systemctl restart "$1"
    else
        ok "running"
    fi
}

do_unit() {
    step "systemd unit $UNIT"
    local unit_changed=0
    install_file "$SRC/systemd/wordtable.service" "$UNIT" 0644 && unit_changed=1
    local name
    for name in "${UPDATE_UNITS[@]}"; do
        install_file "$SRC/systemd/$name" "$UNIT_DIR/$name" 0644 && unit_changed=1
    done
    step "the league's broker beyond the LAN (--league-broker)"
    if [ -n "$LEAGUE_BROKER" ]; then
        if ! [[ "$LEAGUE_BROKER" =~ ^[0-9A-Fa-f:.]+(/[0-9]{1,3})?$ ]]; then
            echo "install.sh: --league-broker takes an IP address or network, not '$LEAGUE_BROKER'" >&2; exit 2
        fi
        local dropin
        dropin=$(mktemp)
        printf '%s\n' "# Written by install.sh --league-broker: the league's MQTT broker beyond the LAN (docs/league.md)." \
            "[Service]" "IPAddressAllow=$LEAGUE_BROKER" > "$dropin"
        install_file "$dropin" "$LEAGUE_DROPIN" 0644 && unit_changed=1
        rm -f "$dropin"
    elif [ -e "$LEAGUE_DROPIN" ]; then
        act rm -f -- "$LEAGUE_DROPIN"
        unit_changed=1
    else
        ok "none: a broker on the local networks is allowed by the unit"
    fi
    if [ "$unit_changed" = 1 ] && ! in_root; then act systemctl daemon-reload; fi
    step "enable and start wordtable.service"
    if [ -L "$WANTS_LINK" ]; then ok "enabled"; else act systemctl ${ROOT:+--root="$ROOT"} enable wordtable.service; fi
    step "enable wordtable-update.path (the owner page's update button: a root unit runs the update)"
    if [ -L "$UPDATE_WANTS" ]; then ok "enabled"; else
        act systemctl ${ROOT:+--root="$ROOT"} enable wordtable-update.path
        in_root || act systemctl start wordtable-update.path
    fi
    if in_root; then note "installing into a root: not started"; return; fi
    keep_running wordtable.service "$unit_changed"
}

do_wifi() {
    step "Wi-Fi: a known network, else the box's own access point (wordtable-wifi.service)"
    if [ "$WIFI" = 0 ]; then
        if [ -L "$WIFI_WANTS" ] || [ -e "$WIFI_UNIT" ]; then remove_wifi; else ok "off (--no-wifi)"; fi
        return
    fi
    if ! network_manager; then
        note "NetworkManager is not this system's network stack: no access point of the box's own (on Raspberry" \
            "Pi OS before Bookworm: sudo raspi-config, Advanced Options, Network Config, NetworkManager; then" \
            "run install.sh again)"
        return
    fi
    local changed=0
    install_file "$SRC/systemd/wordtable-wifi.service" "$WIFI_UNIT" 0644 && changed=1
    if [ "$changed" = 1 ] && ! in_root; then act systemctl daemon-reload; fi
    if [ -L "$WIFI_WANTS" ]; then ok "enabled"; else act systemctl ${ROOT:+--root="$ROOT"} enable wordtable-wifi.service; fi
    if in_root; then return; fi
    keep_running wordtable-wifi.service "$changed"
}

# ---- uninstall -------------------------------------------------------------------------------------

remove() {  # remove PATH...: delete what exists
    local path
    for path in "$@"; do
        if [ -e "$path" ] || [ -L "$path" ]; then act rm -rf -- "$path"; else ok "$path is gone"; fi
    done
}

remove_wifi() {  # stop, disable and remove wordtable-wifi.service
    if in_root; then
        [ -L "$WIFI_WANTS" ] && act systemctl --root="$ROOT" disable wordtable-wifi.service
    elif [ -L "$WIFI_WANTS" ] || systemctl is-active --quiet wordtable-wifi.service 2>/dev/null; then
        act systemctl disable --now wordtable-wifi.service
    fi
    remove "$WIFI_UNIT"
}

uninstall() {
    step "stop and disable wordtable.service"
    if ! in_root && systemctl is-active --quiet wordtable.service 2>/dev/null; then
        act systemctl stop wordtable.service
    fi
    if [ -L "$WANTS_LINK" ]; then act systemctl ${ROOT:+--root="$ROOT"} disable wordtable.service; else ok "disabled"; fi
    if [ -L "$UPDATE_WANTS" ]; then
        if in_root; then act systemctl --root="$ROOT" disable wordtable-update.path
        else act systemctl disable --now wordtable-update.path; fi
    fi
    step "stop, disable and remove wordtable-wifi.service"
    remove_wifi
    step "remove the units, the rules, the start guard and the program (every release)"
    remove "$UNIT" "$UNIT_DIR/wordtable-update.path" "$UNIT_DIR/wordtable-update.service" "${GUARD%/*}" "$LEAGUE_DROPIN" "$UDEV_RULE" "$SCANNER_RULE" "$POLKIT_RULE" "$AVAHI_SERVICE" "$PREFIX"
    if [ -d "${LEAGUE_DROPIN%/*}" ] && [ -z "$(ls -A "${LEAGUE_DROPIN%/*}")" ]; then act rmdir "${LEAGUE_DROPIN%/*}"; fi
    if ! in_root && [ "$CHANGED" -gt 0 ]; then
        act systemctl daemon-reload
        if command -v udevadm >/dev/null; then act udevadm control --reload-rules; fi
    fi
    step "remove user $SERVICE_USER"
    if user_exists; then act userdel "${ROOT_OPT[@]}" "$SERVICE_USER"; else ok "no such user"; fi
    step "configuration $CONFIG_DIR"
    if [ -d "$CONFIG_DIR" ] && [ -z "$(ls -A "$CONFIG_DIR")" ]; then act rmdir "$CONFIG_DIR"
    elif [ -d "$CONFIG_DIR" ]; then note "kept: it holds your settings; delete it yourself if you want"
    else ok "none"; fi
    step "journal $STATE_DIR"
    note "kept (your games). systemd gives it to the user again on a reinstall."
    note "I2C and the UART stay enabled; turn them off with raspi-config if nothing else needs them."
    if config=$(boot_config) && grep -q "^dtparam=i2c_arm_baudrate=$I2C_SPEED" "$config"; then
        note "the I2C bus stays at $((I2C_SPEED / 1000)) kHz: delete the wordtable lines in $config for the default"
    fi
}

# ---- main ------------------------------------------------------------------------------------------

if [ "$DRY_RUN" = 0 ] && ! in_root && [ "$(id -u)" != 0 ]; then
    echo "install.sh: run as root (sudo), or use --dry-run or --root DIR" >&2
    exit 1
fi
[ "$DRY_RUN" = 1 ] && echo "dry run: nothing is changed"
if [ "$UNINSTALL" = 1 ]; then
    uninstall
else
    REBOOT=0
    do_packages
    do_user
    do_release
    do_guard
    do_buses
    do_i2c_speed
    do_rules
    do_unit
    do_wifi
    do_migrate
    [ "$REBOOT" = 1 ] && note "I2C/UART settings change at the next boot: sudo reboot"
fi
if [ "$CHANGED" = 0 ]; then
    echo "nothing to change"
elif [ "$DRY_RUN" = 1 ]; then
    echo "$CHANGED change(s) would be made"
else
    echo "done: $CHANGED change(s)"
fi
