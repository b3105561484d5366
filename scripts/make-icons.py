"""Draw judgeapp's home-screen icons (static/icons/*.png) with Pillow; run once when the icon changes."""

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

OUT = Path(__file__).resolve().parents[1] / "judgeapp" / "static" / "icons"
FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf"
NAVY, WHITE, GOLD = (16, 42, 67), (255, 255, 255), (240, 180, 41)


def draw(size: int, maskable: bool) -> Image.Image:
    img = Image.new("RGB", (size, size), NAVY)
    d = ImageDraw.Draw(img)
    inset = size * (0.2 if maskable else 0.12)  # a maskable icon keeps its mark inside the safe circle
    box = size - 2 * inset
    d.rounded_rectangle(
        [inset + box * 0.18, inset + box * 0.1, inset + box * 0.82, inset + box * 0.9],
        radius=box * 0.06,
        outline=WHITE,
        width=max(2, int(size * 0.025)),
    )  # a card
    font = ImageFont.truetype(FONT, int(box * 0.5))
    d.text((size / 2, size / 2 - box * 0.04), "J", font=font, fill=WHITE, anchor="mm")
    d.rectangle([inset + box * 0.3, inset + box * 0.72, inset + box * 0.7, inset + box * 0.78], fill=GOLD)
    return img


for size, maskable, name in [
    (192, False, "icon-192.png"),
    (512, False, "icon-512.png"),
    (512, True, "maskable-512.png"),
]:
    draw(size, maskable).save(OUT / name, optimize=True)
    print(OUT / name)
