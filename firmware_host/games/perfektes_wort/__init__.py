"""Das perfekte Wort outside the core: its data files (`data_files`) and its printable sheets (`sheet`)."""
