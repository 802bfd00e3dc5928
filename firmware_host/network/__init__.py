"""The box's Wi-Fi (issue 41): a known network when one is in reach, else the box's own access point.

`decide` (what to do, a pure function of what NetworkManager reports), `files` (what the watcher and the
table's service tell each other through the state directory), `nm` (nmcli, the only I/O with
NetworkManager), `watcher` (the loop of `wordtable wifi watch`, run as root by wordtable-wifi.service) and
`feed` (the table's service's side: the watcher's status in, the table's requests out)."""
