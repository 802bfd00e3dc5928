"""Property tests (hypothesis) over whole games, the texts and the appliance: each module is marked slow, so
the inner loop (`-m "not slow"`) does not even import them; CI runs them."""
