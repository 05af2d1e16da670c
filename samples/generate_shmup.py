#!/usr/bin/env python3
"""Generate samples/shmup-bullets.json, a shoot-'em-up snapshot for `collide check`.

    python3 samples/generate_shmup.py > samples/shmup-bullets.json

Python 3 standard library only. The output is deterministic: a fixed seed, and
only random.Random.random() is used, whose sequence is stable across Python
versions.

The scene is a 480 x 640 playfield (y axis down): an enemy formation at the top,
the player's ship at the bottom, a few hundred bullets in between. Every hit is
placed on purpose and named for what it shows ("bullet-hit-...", "pellet-edge-...");
every other bullet keeps a clear margin from every target it is tested against, so
the expected report is known by construction (see samples/README.md). All
coordinates are multiples of 0.25, so the tangencies are exact in binary too.
"""
import json
import random
import sys

SEED = 20240611
WIDTH, HEIGHT = 480, 640
BULLET_R = 2          # player bullets (circles)
ENEMY_SHOT_R = 3      # enemy bullets (circles)
MARGIN = 2            # clearance of every random bullet from its targets
N_PLAYER_CIRCLES = 160
N_PLAYER_POINTS = 60
N_ENEMY_CIRCLES = 30
N_ENEMY_POINTS = 10

# Concave arrow-shaped ship (y down, so the nose at y 536 points up).
SHIP = [[240, 536], [252, 560], [264, 576], [246, 570], [240, 580], [234, 570], [216, 576], [228, 560]]
SHIP_CENTER, SHIP_RADIUS = (240, 558), 32  # a circle around the whole ship

BOSS = [[216, 36], [228, 16], [252, 16], [264, 36], [252, 56], [228, 56]]
BOSS_CENTER, BOSS_RADIUS = (240, 36), 24

SAUCER_R = 10
SAUCERS = [(60 + 72 * i, 80) for i in range(6)]               # saucer-1 .. saucer-6
TANK_W, TANK_H = 28, 20
TANKS = [(96 + 72 * i, 150) for i in range(5)]                # centres of tank-1 .. tank-5
FIGHTERS = [(120 + 80 * i, 220) for i in range(4)]            # fighter-1 .. fighter-4
# Concave chevron pointing down at the player; the notch is at (0, -2).
CHEVRON = [(0, 12), (14, -8), (0, -2), (-14, -8)]


def num(v):
    """A coordinate as JSON: an int when integral, else the exact dyadic decimal."""
    return int(v) if v == int(v) else v


def pos(x, y):
    return [num(x), num(y)]


def enemies():
    out = [{"id": "boss", "type": "polygon", "points": BOSS, "groups": ["enemies", "boss"]}]
    for i, (x, y) in enumerate(SAUCERS, 1):
        out.append({"id": "saucer-%d" % i, "type": "circle", "center": pos(x, y), "radius": SAUCER_R,
                    "groups": ["enemies", "saucers"]})
    for i, (x, y) in enumerate(TANKS, 1):
        out.append({"id": "tank-%d" % i, "type": "rect", "x": x - TANK_W // 2, "y": y - TANK_H // 2,
                    "width": TANK_W, "height": TANK_H, "groups": ["enemies", "tanks"]})
    for i, (x, y) in enumerate(FIGHTERS, 1):
        out.append({"id": "fighter-%d" % i, "type": "polygon",
                    "points": [pos(x + dx, y + dy) for dx, dy in CHEVRON], "groups": ["enemies", "fighters"]})
    return out


def enemy_bounds():
    """A circle around each enemy: a random bullet must stay clear of all of them."""
    half_diag = ((TANK_W / 2) ** 2 + (TANK_H / 2) ** 2) ** 0.5
    return ([(BOSS_CENTER, BOSS_RADIUS)] + [(c, SAUCER_R) for c in SAUCERS] +
            [(c, half_diag) for c in TANKS] + [(c, 17) for c in FIGHTERS])


def deliberate_player_bullets():
    """Player bullets placed on purpose: hits, clips and exact touches."""
    s2, s4, s5 = SAUCERS[1], SAUCERS[3], SAUCERS[4]
    t1, t3, t4 = TANKS[0], TANKS[2], TANKS[3]
    f1, f2, f3 = FIGHTERS[0], FIGHTERS[1], FIGHTERS[2]
    circ = lambda i, x, y: {"id": i, "type": "circle", "center": pos(x, y), "radius": BULLET_R,
                            "groups": ["bullets"]}
    pt = lambda i, x, y: {"id": i, "type": "point", "at": pos(x, y), "groups": ["bullets"]}
    return [
        # well inside: within
        circ("bullet-hit-saucer-2", s2[0] + 3, s2[1] + 2),
        circ("bullet-hit-boss", BOSS_CENTER[0], BOSS_CENTER[1]),
        pt("pellet-hit-fighter-2", f2[0], f2[1] + 4),
        # across an edge: overlap
        circ("bullet-clip-saucer-4", s4[0] + SAUCER_R, s4[1]),
        circ("bullet-clip-tank-4", t4[0] - TANK_W // 2, t4[1]),
        # exact touches
        circ("bullet-tangent-saucer-5", s5[0], s5[1] + SAUCER_R + BULLET_R),
        circ("bullet-graze-tank-1", t1[0], t1[1] + TANK_H // 2 + BULLET_R),
        pt("pellet-graze-tank-3", t3[0] + 5, t3[1] + TANK_H // 2),
        pt("pellet-edge-fighter-3", f3[0] + 7, f3[1] + 2),
        pt("pellet-notch-fighter-1", f1[0], f1[1] - 2),
    ]


def deliberate_enemy_bullets():
    """Enemy bullets placed on purpose against the player's ship."""
    return [
        {"id": "enemy-shot-hit-ship", "type": "circle", "center": [240, 560], "radius": ENEMY_SHOT_R,
         "groups": ["enemy-bullets"]},
        {"id": "enemy-shot-clip-wing", "type": "circle", "center": [264, 576], "radius": ENEMY_SHOT_R,
         "groups": ["enemy-bullets"]},
        # (246, 548) is the midpoint of the edge (240, 536)-(252, 560)
        {"id": "enemy-pellet-graze-ship", "type": "point", "at": [246, 548], "groups": ["enemy-bullets"]},
        # 5 = |(3, -4)| from the nose vertex, and outside both edges that meet there
        {"id": "enemy-plasma-touch-nose", "type": "circle", "center": [243, 532], "radius": 5,
         "groups": ["enemy-bullets"]},
    ]


def clear_of(x, y, r, bounds):
    for (cx, cy), br in bounds:
        if ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 < br + r + MARGIN:
            return False
    return True


def random_position(rng, r, bounds, y_lo, y_hi):
    while True:
        x = r + int(rng.random() * (WIDTH - 2 * r) * 4) / 4
        y = y_lo + int(rng.random() * (y_hi - y_lo) * 4) / 4
        if clear_of(x, y, r, bounds):
            return x, y


def main():
    rng = random.Random(SEED)
    ebounds = enemy_bounds()
    ship_bounds = [(SHIP_CENTER, SHIP_RADIUS)]

    # Player bullets: streams rising from the ship plus a wide spread.
    player = []
    for _ in range(N_PLAYER_CIRCLES):
        x, y = random_position(rng, BULLET_R, ebounds, 0, 520)
        player.append(("circle", x, y))
    for _ in range(N_PLAYER_POINTS):
        x, y = random_position(rng, 0, ebounds, 0, 520)
        player.append(("point", x, y))
    # Enemy bullets: falling through the lower half, clear of the ship.
    enemy = []
    for _ in range(N_ENEMY_CIRCLES):
        x, y = random_position(rng, ENEMY_SHOT_R, ship_bounds, 240, 640 - ENEMY_SHOT_R)
        enemy.append(("circle", x, y))
    for _ in range(N_ENEMY_POINTS):
        x, y = random_position(rng, 0, ship_bounds, 240, 640)
        enemy.append(("point", x, y))

    def shuffled(items):
        items = list(items)
        for i in range(len(items) - 1, 0, -1):
            j = int(rng.random() * (i + 1))
            items[i], items[j] = items[j], items[i]
        return items

    bullets = []
    for k, (kind, x, y) in enumerate(player, 1):
        if kind == "circle":
            bullets.append({"id": "bullet-%03d" % k, "type": "circle", "center": pos(x, y),
                            "radius": BULLET_R, "groups": ["bullets"]})
        else:
            bullets.append({"id": "pellet-%03d" % k, "type": "point", "at": pos(x, y), "groups": ["bullets"]})
    bullets = shuffled(bullets + deliberate_player_bullets())

    shots = []
    for k, (kind, x, y) in enumerate(enemy, 1):
        if kind == "circle":
            shots.append({"id": "enemy-shot-%02d" % k, "type": "circle", "center": pos(x, y),
                          "radius": ENEMY_SHOT_R, "groups": ["enemy-bullets"]})
        else:
            shots.append({"id": "enemy-pellet-%02d" % k, "type": "point", "at": pos(x, y),
                          "groups": ["enemy-bullets"]})
    shots = shuffled(shots + deliberate_enemy_bullets())

    shapes = ([{"id": "player-ship", "type": "polygon", "points": SHIP, "groups": ["player"]}] +
              enemies() + bullets + shots)
    scene = {
        "format": "collide-scene",
        "version": 1,
        "settings": {"y_axis": "down"},
        "shapes": shapes,
        "pairs": ["bullets:enemies", "enemy-bullets:player"],
        "rules": [
            {"name": "the volley lands", "pairs": "bullets:enemies", "expect": "some"},
            {"name": "enemies keep formation", "pairs": "enemies:enemies", "expect": "none"},
        ],
    }
    write(scene, sys.stdout)


def write(scene, out):
    """Readable and diff-friendly: one shape per line."""
    out.write("{\n")
    keys = list(scene)
    for n, key in enumerate(keys):
        comma = "," if n + 1 < len(keys) else ""
        if key == "shapes":
            out.write('  "shapes": [\n')
            for i, s in enumerate(scene["shapes"]):
                out.write("    " + json.dumps(s) + ("," if i + 1 < len(scene["shapes"]) else "") + "\n")
            out.write("  ]" + comma + "\n")
        elif key == "rules":
            out.write('  "rules": [\n')
            for i, r in enumerate(scene["rules"]):
                out.write("    " + json.dumps(r) + ("," if i + 1 < len(scene["rules"]) else "") + "\n")
            out.write("  ]" + comma + "\n")
        else:
            out.write("  %s: %s%s\n" % (json.dumps(key), json.dumps(scene[key]), comma))
    out.write("}\n")


if __name__ == "__main__":
    main()
