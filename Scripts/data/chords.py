"""Douglas–Peucker's two searches, shared by the layers that simplify rings (islands, regions).

Points are 2-tuples in any planar units; the distances are symmetric in the two axes, so (x, y) and (lat, lon)
give the same answers.
"""


def farthest_from_first(points):
    """The index of the point farthest from the first (of equals, the first): where a ring is split in two."""
    a0, b0 = points[0]
    return max(range(len(points)), key=lambda i: ((points[i][0] - a0) ** 2 + (points[i][1] - b0) ** 2, -i))


def farthest_from_chord(points, start, end):
    """(index, squared distance) of the point strictly between `start` and `end` farthest from the segment
    joining them (of equals, the first)."""
    ax, ay = points[start]
    bx, by = points[end]
    dx, dy = bx - ax, by - ay
    length_sq = dx * dx + dy * dy
    best, best_squared = start + 1, -1.0
    for i in range(start + 1, end):
        px, py = points[i]
        ux, uy = px - ax, py - ay
        t = (ux * dx + uy * dy) / length_sq if length_sq else 0.0
        if t > 1.0:
            t = 1.0
        elif t < 0.0:
            t = 0.0
        ex, ey = ux - t * dx, uy - t * dy
        squared = ex * ex + ey * ey
        if squared > best_squared:
            best, best_squared = i, squared
    return best, best_squared
