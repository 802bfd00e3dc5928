"""The table page: a web page every player's phone opens to join the box (issue 14).

`server.PageServer` runs aiohttp in a thread of its own beside the shell; it talks to the shell only
through its queue (`Shell.put`: `SeatEntry`, `SeatCommand`, `ClaimsPending`, `PageInfo`) and the
read-only views the shell publishes after every step (`core.page_view.page_views`). `guard` holds the
table code, the seat tokens, the lock-out, the waiting takeovers and the rate limits; `messages` checks
what a page sends; `past_games` reads the journal read-only; `static/` is the page itself: each page's body,
its script and its texts (JSON), named in `pages.json` (web.py gives every page the one head), and
`common.js`, the helpers every page's script (and the virtual box's) runs on.
"""
