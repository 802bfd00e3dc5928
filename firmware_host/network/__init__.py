"""The box's Wi-Fi (issue 41): a known network when one is in reach, else the box's own access point.

`qr_payload` (the standard `WIFI:` QR text), `decide` (what to do, a pure function of what NetworkManager
reports), `files` (what the watcher and the table's service tell each other through the state directory),
`nm` (nmcli, the only I/O with NetworkManager) and `watcher` (the loop of `wordtable wifi watch`, run as
root by wordtable-wifi.service)."""
