import xml.etree.ElementTree as ET

import pytest

from hw.profile import ProfileError
from hw.wiring import WIRING_DIR, generate, main
from tests.hwhelpers import edited


def test_committed_guide_is_what_the_default_profile_generates():
    files = generate("default")
    assert set(files) == {"README.md", "diagram.svg"}
    for name, content in files.items():
        assert (WIRING_DIR / name).read_bytes() == content.encode("utf-8"), (
            f"regenerate: python -m hw.wiring ({name})"
        )


def test_regeneration_is_byte_identical(tmp_path):
    assert main(["--out", str(tmp_path)]) == 0
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert main(["--out", str(tmp_path)]) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == first
    assert main(["--out", str(tmp_path), "--check"]) == 0
    (tmp_path / "README.md").write_text("stale", encoding="utf-8")
    assert main(["--out", str(tmp_path), "--check"]) == 1


def test_pin_table_rows_name_gpio_physical_pin_and_part():
    readme = generate("default")["README.md"]
    assert "| buzzer (NPN base, 1 kΩ) | 18 | 12 | Buzzer |" in readme
    assert "| button START | 26 | 37 | Buttons |" in readme
    assert "| LED bar segment 1 (lit longest) | 5 | 29 | LED bar |" in readme
    assert "| OLED SDA | 2 | 3 | OLED |" in readme
    for line in (
        "dtparam=i2c_arm=on",
        "dtparam=i2c_arm_baudrate=400000",
        "enable_uart=1",
        "dtoverlay=gpio-shutdown,gpio_pin=4",
        "usermod -aG gpio,i2c,input wordtable",
        "99-wordtable-reader.rules",
    ):
        assert line in readme
    for part in ("10-segment LED bar", "2N2222", "RDM6300", "KY-040", "SSD1306", "Zero 2 W"):
        assert part in readme


def test_diagram_is_svg_with_the_whole_header():
    svg = ET.fromstring(generate("default")["diagram.svg"].encode("utf-8"))
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.tag == f"{ns}svg"
    texts = [t.text for t in svg.iter(f"{ns}text")]
    assert [str(n) for n in range(1, 41)] == [t for t in texts if t and t.isdigit()][:40]
    assert len(list(svg.iter(f"{ns}polyline"))) == 19  # one wire per used GPIO of the default profile


def test_encoder_appears_when_enabled():
    readme = generate("sim")["README.md"]
    assert "| encoder A (CLK) | 9 | 21 | Rotary encoder |" in readme


def test_conflicting_profile_fails_with_the_reason(tmp_path, capsys):
    profile = tmp_path / "board.toml"
    profile.write_text(edited("menu = 21", "menu = 18"), encoding="utf-8")
    with pytest.raises(ProfileError) as info:
        generate(profile)
    assert info.value.errors == [("buttons.menu", "GPIO 18 is also used by buzzer.pin")]
    out = tmp_path / "out"
    assert main(["--profile", str(profile), "--out", str(out)]) == 2
    assert "buttons.menu: GPIO 18 is also used by buzzer.pin" in capsys.readouterr().err
    assert not out.exists()


def test_the_guide_brings_the_box_up_with_doctor_then_selftest_and_lists_every_fix():
    from hw.troubleshooting import EXAMPLE, PROBLEMS

    readme = generate("default")["README.md"]
    bring_up = readme.index("## Bring-up")
    assert readme.index("## Pin table") < readme.index("## Raspberry Pi OS set-up") < bring_up
    assert bring_up < readme.index("wordtable doctor`", bring_up) < readme.index("wordtable selftest`", bring_up)
    troubleshooting = readme[readme.index("## Troubleshooting"):]
    for problem in PROBLEMS.values():
        fix = problem.fix.format(**EXAMPLE).replace("*", "\\*")
        assert f"| {problem.check} | {problem.symptom} | {fix} |" in troubleshooting


def test_the_circuit_shows_every_profile_pin_with_its_parts_and_a_power_budget():
    from hw.profile import load_profile
    from hw.wiring import PART_COLOURS, POWER_COLOURS, physical_pin

    p = load_profile("default")
    readme = generate("default")["README.md"]
    circuit = readme.split("## Circuit", 1)[1].split("## Bill of materials", 1)[0]
    for gpio in p.led_bar.pins:
        assert f"GPIO {gpio} [pin {physical_pin(gpio)}]" in circuit and "--[330 Ω]--|>|-- GND" in circuit
    for gpio in (p.buttons.start, p.buttons.next, p.buttons.back, p.buttons.menu):
        assert f"GPIO {gpio} [pin {physical_pin(gpio)}]  ---o/ o--- GND" in circuit
    assert f"GPIO {p.buzzer.pin} [pin {physical_pin(p.buzzer.pin)}]  --[1 kΩ]" in circuit and "NPN" in circuit
    assert "pin order differs" in circuit and "together ≈" in circuit and "Button layout" in circuit
    assert not set(PART_COLOURS.values()) & set(POWER_COLOURS.values())
    assert "#e8112d" not in PART_COLOURS.values()  # no signal drawn in the 5 V red
