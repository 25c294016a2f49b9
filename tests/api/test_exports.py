"""Exports: a step as PNG, every step as a ZIP, the backward pass as a GIF, the offline HTML
file and QR codes; what a slide tool receives is checked as a picture, not as bytes."""

from __future__ import annotations

import io
import re
import shutil
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path
from xml.etree import ElementTree

import pytest
from fastapi.testclient import TestClient
from PIL import Image

from app.draw.offline import BundleError, bundle
from app.draw.png import PT_TO_PX, svg_to_png, theme_colours
from app.main import create_app
from app.presets import PRESETS
from app.serving import GRAPH_CSS

PRESETS_BY_ID = {p.id: p.source for p in PRESETS}

PRODUCT = "a = Value(2.0)\nb = Value(-3.0)\nc = a * b + b\nc.backward()\n"  # 2 fwd, 3 bwd steps
LIGHT_BG = (255, 255, 255)
DARK_BG = (0x15, 0x1A, 0x21)


@pytest.fixture(scope="module")
def client() -> Iterator[TestClient]:
    with TestClient(create_app()) as test_client:
        yield test_client


@pytest.fixture(scope="module")
def graph(client: TestClient) -> dict:
    return client.post("/api/graph", json={"source": PRODUCT}).json()


def size_pt(svg: str) -> tuple[float, float]:
    w, h = re.search(r'width="([\d.]+)pt" height="([\d.]+)pt"', svg).groups()  # type: ignore[union-attr]
    return float(w), float(h)


def ink_share(image: Image.Image, background: tuple[int, int, int]) -> float:
    """The share of pixels that are not the background colour."""
    rgb = image.convert("RGB")
    pixels = rgb.get_flattened_data()
    return sum(1 for p in pixels if p != background) / (rgb.width * rgb.height)


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))  # type: ignore[return-value]


def test_png_has_the_svg_size_times_scale_and_is_not_blank(client: TestClient, graph) -> None:
    params = {"source": PRODUCT, "scale": 1.5, "aspect": "graph", "rankdir": "LR"}
    response = client.get("/api/graph.png", params=params)
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/png"
    image = Image.open(io.BytesIO(response.content))
    w, h = size_pt(graph["svg"])
    assert image.size == (round(w * PT_TO_PX * 1.5), round(h * PT_TO_PX * 1.5))
    assert image.getpixel((1, 1))[:3] == LIGHT_BG
    assert 0.05 < ink_share(image, LIGHT_BG) < 0.9
    # the gradient colours: a (grad −3, the largest) is a strong orange, b (grad 3) strong blue
    colours = {p[:3] for p in image.convert("RGB").get_flattened_data()}
    css = theme_colours(GRAPH_CSS.read_text(), "light")
    assert rgb(css["--g-bin-n3"]) in colours and rgb(css["--g-bin-p3"]) in colours


def test_png_text_is_drawn(graph) -> None:
    """Without a font resvg silently draws no text: the picture must change when the node
    texts are removed, by about as much as the text covers."""
    svg = re.sub(r"<style>.*?</style>", "", graph["svg"], flags=re.S)
    with_text = Image.open(io.BytesIO(svg_to_png(svg, "light", 1.0))).convert("RGB")
    no_text = re.sub(r"<text[^>]*>[^<]*</text>", "", svg)
    without = Image.open(io.BytesIO(svg_to_png(no_text, "light", 1.0))).convert("RGB")
    changed = sum(
        a != b
        for a, b in zip(with_text.get_flattened_data(), without.get_flattened_data(), strict=True)
    )
    assert changed > 0.01 * with_text.width * with_text.height


def test_png_is_a_slide_with_the_steps_explanation_by_default(client: TestClient) -> None:
    response = client.get("/api/graph.png", params={"preset": "lecture-neuron", "step": 5})
    assert response.status_code == 200
    image = Image.open(io.BytesIO(response.content))
    assert image.size == (1920, 1080)  # 16:9, for a slide
    name = 'inline; filename="gradstep-lecture-neuron-backward-06.png"'
    assert response.headers["content-disposition"] == name  # it says what it is
    four_three = client.get("/api/graph.png", params={"preset": "lecture-neuron", "aspect": "4:3"})
    assert Image.open(io.BytesIO(four_three.content)).size == (1440, 1080)


def test_an_svg_is_named_after_its_program_and_step(client: TestClient) -> None:
    step = client.get("/api/graph.svg", params={"preset": "lecture-neuron", "step": 5})
    name = 'inline; filename="gradstep-lecture-neuron-backward-06.svg"'
    assert step.status_code == 200 and step.headers["content-disposition"] == name
    own = client.get("/api/graph.svg", params={"source": "loss = 2.0 * 3.0\n"})
    assert own.headers["content-disposition"] == 'inline; filename="gradstep-loss-2-0-3-0.svg"'


def test_a_slides_caption_and_node_text_are_large(client: TestClient) -> None:
    from app.draw.slide import caption, slide_svg
    from app.pipeline import draw

    state = client.app.state  # type: ignore[attr-defined]
    drawn = draw(state.pipeline, state.layout, PRESETS_BY_ID["lecture-neuron"], None, "auto", 2.4)
    rows = caption(drawn.trace, "backward", 1)
    assert rows[0] == ["Backward step 2 of 6 · o = tanh(n)"]
    assert rows[1][0] == "n.grad += ∂o/∂n · o.grad"
    svg = slide_svg(drawn.svg("backward", 1), rows, "16:9")
    inner = re.search(
        r'<svg x="[\d.]+" y="[\d.]+" width="([\d.]+)" height="([\d.]+)" viewBox="([^"]+)"', svg
    )
    assert inner is not None
    box_w, box_h = float(inner[1]), float(inner[2])
    _, _, view_w, view_h = map(float, inner[3].split())
    scale = min(box_w / view_w, box_h / view_h)  # pixels of the 1920×1080 picture per point
    assert 14 * scale >= 18  # node text at least 18 px tall


def test_png_dark_theme_and_a_step(client: TestClient) -> None:
    response = client.get(
        "/api/graph.png", params={"source": PRODUCT, "theme": "dark", "step": 0, "phase": "forward"}
    )
    image = Image.open(io.BytesIO(response.content))
    assert image.getpixel((1, 1))[:3] == DARK_BG
    assert ink_share(image, DARK_BG) > 0.05


def test_png_refuses_a_step_that_does_not_exist_and_a_picture_too_large(
    client: TestClient,
) -> None:
    bad_step = client.get("/api/graph.png", params={"source": PRODUCT, "step": 99})
    assert bad_step.status_code == 422
    assert "does not exist" in bad_step.json()["error"]["message"]
    wide = "x = Value(1.0)\n" + "".join(f"x = x * 1.5 + {k}.0\n" for k in range(150))
    huge = client.get("/api/graph.png", params={"source": wide, "scale": 4, "aspect": "graph"})
    assert huge.status_code == 422
    assert huge.json()["error"]["kind"] == "limit"
    assert "smaller scale" in huge.json()["error"]["message"]


def test_png_without_a_scale_fits_the_size_limit(client: TestClient) -> None:
    wide = "x = Value(1.0)\n" + "".join(f"x = x * 1.5 + {k}.0\n" for k in range(60))
    params = {"source": wide, "aspect": "graph", "rankdir": "LR"}
    image = Image.open(io.BytesIO(client.get("/api/graph.png", params=params).content))
    assert max(image.size) <= 8192
    assert max(image.size) > 4000  # shrunk to the limit, not to a thumbnail


def test_zip_holds_one_png_and_one_svg_per_step_in_walk_order(client: TestClient, graph) -> None:
    response = client.get("/api/graph.zip", params={"source": PRODUCT, "aspect": "4:3"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/zip"
    assert response.headers["content-disposition"].startswith("attachment; filename=")
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = archive.namelist()
    steps = sum(s["phase"] in ("forward", "backward") for s in graph["structure"]["steps"])
    pngs = [n for n in names if n.endswith(".png")]
    svgs = [n for n in names if n.endswith(".svg")]
    assert len(pngs) == len(svgs) == steps == 5
    assert [n.removesuffix(".png") for n in pngs] == [n.removesuffix(".svg") for n in svgs]
    assert pngs == sorted(pngs)
    assert pngs[0] == "001-forward-001.png"
    assert pngs[-1] == "005-backward-003.png"
    sizes = {Image.open(io.BytesIO(archive.read(n))).size for n in pngs}
    assert sizes == {(1440, 1080)}  # every slide lines up
    pictures = [archive.read(n) for n in pngs]
    assert len(set(pictures)) == steps  # every step looks different
    for name in svgs:
        root = ElementTree.fromstring(archive.read(name))
        assert root.tag.endswith("svg") and "gradstep-slide" in root.get("class", "")
    last = archive.read(svgs[-1]).decode()
    assert 'id="n0-grad"' in last and ">−3.0000<" in last  # a's final grad


def test_zip_refuses_too_many_steps_before_drawing(client: TestClient) -> None:
    chain = "x = Value(1.0)\n" + "".join(f"x = x * 1.01 + {k}.0\n" for k in range(80))
    response = client.get("/api/graph.zip", params={"source": chain})
    assert response.status_code == 422
    body = response.json()["error"]
    assert body["kind"] == "limit" and "at most 300" in body["message"]


def test_gif_has_a_frame_per_backward_step_with_the_chosen_delay(client: TestClient, graph) -> None:
    response = client.get("/api/graph.gif", params={"source": PRODUCT, "delay": 700})
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/gif"
    gif = Image.open(io.BytesIO(response.content))
    assert gif.n_frames == sum(s["phase"] == "backward" for s in graph["structure"]["steps"]) == 3
    assert gif.size == (1920, 1080)
    durations = []
    for k in range(gif.n_frames):
        gif.seek(k)
        durations.append(gif.info["duration"])
    assert durations == [700, 700, 2100]  # the finished gradients stay up longer
    assert gif.info.get("loop") == 0
    assert client.get("/api/graph.gif", params={"source": PRODUCT, "delay": 10}).status_code == 422


@pytest.mark.parametrize("theme", ["light", "dark"])
def test_gif_frames_keep_the_highlight_colour_and_the_slide_size(
    client: TestClient, theme: str
) -> None:
    response = client.get("/api/graph.gif", params={"preset": "lecture-neuron", "theme": theme})
    gif = Image.open(io.BytesIO(response.content))
    accent = theme_colours(GRAPH_CSS.read_text(), theme)["--g-accent"]  # type: ignore[arg-type]
    rgb = tuple(int(accent[i : i + 2], 16) for i in (1, 3, 5))
    palette = gif.getpalette() or []
    colours = {tuple(palette[i : i + 3]) for i in range(0, len(palette), 3)}
    assert rgb in colours  # the step's outline keeps its colour: it was quantised to brown
    assert gif.size == (1920, 1080)


def test_a_zips_steps_keep_one_graph_size(client: TestClient) -> None:
    """Whatever each step's caption holds (one theme: sizes do not depend on its colours)."""
    zipped = client.get("/api/graph.zip", params={"preset": "lecture-neuron"})
    archive = zipfile.ZipFile(io.BytesIO(zipped.content))
    box = re.compile(r'<svg x="[^"]+" y="[^"]+" width="[^"]+" height="[^"]+"')
    boxes = {
        box.findall(archive.read(n).decode())[0] for n in archive.namelist() if n.endswith(".svg")
    }
    assert len(boxes) == 1  # the graph keeps one size whatever each step's caption holds


def test_offline_html_holds_everything_and_fetches_nothing(client: TestClient, graph) -> None:
    response = client.get("/api/graph.html", params={"source": PRODUCT})
    assert response.status_code == 200
    assert response.headers["content-disposition"].startswith("attachment;")
    html = response.text
    assert not re.search(r'\b(src|href)="', html)  # no file, no link, no network
    assert "import " not in html.split("<script>", 1)[1]  # one classic script, no modules
    assert html.count("</script>") == 2  # the data and the script, nothing closed early
    for module in ("stepper.js", "graph.js", "model.js", "parts.js", "explain.js", "config.js"):
        assert f"// ---- {module}" in html
    assert 'id=\\"n0-grad\\"' in html  # the SVG, inside the JSON data
    assert ".player-graph {" in html and ".gradstep-graph text {" in html  # the stylesheets


def test_offline_data_cannot_close_its_script_tag(client: TestClient) -> None:
    hostile = 'x = Value(1.0, label="</script><script>alert(1)</script>")\ny = x * 2\n'
    html = client.get("/api/graph.html", params={"source": hostile}).text
    assert html.count("</script>") == 2
    assert "\\u003c/script>" in html


def test_bundle_rewrites_imports_to_scopes(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text("export const ONE = 1;\nexport function two() { return 2; }\n")
    (tmp_path / "b.js").write_text(
        'import { ONE, two as deux } from "./a.js";\nconsole.log(ONE + deux());\n'
    )
    script = bundle("b.js", tmp_path)
    assert script.index("// ---- a.js") < script.index("// ---- b.js")
    assert "const { ONE, two: deux } = __gradstep_a;" in script
    assert "return { ONE, two };" in script
    if shutil.which("node"):  # the bundle runs and prints 3
        node = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
        assert node.stdout.strip() == "3"
    (tmp_path / "c.js").write_text('import * as a from "./a.js";\n')
    with pytest.raises(BundleError, match="only `import"):
        bundle("c.js", tmp_path)


def test_qr_code_svg_and_a_link_too_long(client: TestClient) -> None:
    response = client.get("/api/qr.svg", params={"text": "http://127.0.0.1:8000/?source=a%3D1"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "image/svg+xml"
    root = ElementTree.fromstring(response.content)
    assert int(root.get("width")) == int(root.get("height")) >= 100
    too_long = client.get("/api/qr.svg", params={"text": "x" * 2001})
    assert too_long.status_code == 422


def test_png_without_fonts_is_a_503_that_says_so(client: TestClient, monkeypatch) -> None:
    from app.draw import png as raster

    monkeypatch.setattr(raster, "FONT_DIRS", ("/nonexistent/fonts",))
    raster.font_dirs.cache_clear()
    try:
        response = client.get("/api/graph.png", params={"source": PRODUCT})
    finally:
        raster.font_dirs.cache_clear()
    assert response.status_code == 503
    assert "fonts-dejavu-core" in response.json()["error"]["message"]
