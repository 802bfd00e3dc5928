"""The box's footer messages as the phones say them (`page_parts.spoken`): never naming the box's keys."""

from __future__ import annotations

import pytest

from firmware_host.core.table.page_parts import spoken


@pytest.mark.parametrize(("footer", "said"), [
    ("gewählt: Welle – START auf die zweite Gruppe", "gewählt: Welle"),
    ("Pause · START: weiter", "Pause"),
    ("Drehen/NEXT · Länge/Wort: tippen/MENU · START ok", ""),
    ("Anna +14 → 30", "Anna +14 → 30"),
    ("Rückgängig – Cem ist am Zug", "Rückgängig – Cem ist am Zug"),
    ("STARTER", "STARTER"),
])
def test_a_footer_loses_the_parts_that_name_a_box_key(footer, said):
    assert spoken(footer) == said
