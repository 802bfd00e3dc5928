"""Safe updates (issue 41): a release file that installs offline (`release`), the layout of releases on the
box with its atomic `current` pointer (`layout`), the update itself with its health check and diff
(`apply`, `health`, `packages`), and the owner page's button (`page_routes`). The start guard that rolls a
release back after two failed starts is not here: it is `systemd/wordtable-guard`, outside every release."""
