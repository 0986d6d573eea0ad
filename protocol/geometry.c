/* geometry.c - the per-board tables every game on that board shares.
 *
 * tx_geometry_new computes, once per board, the border zones of each
 * hole, its knight neighbours with the link ids to them, and for each link
 * the links that cross it. Crossings are found with exact integer segment
 * intersection, so no rule of thumb about knight shapes can be wrong: on the
 * infinite lattice every knight link is crossed by exactly 9 others, which
 * init asserts, and only those that exist on this board are kept.
 */
#include "geometry.h"

#include <assert.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "hole.h"

/* The eight knight steps. The first four have dx > 0 and are the link
 * directions of geometry.h; step k + 4 is the reverse of step k, so the link
 * from h along step k >= 4 is the link of the neighbour along step k - 4. */
static const int step_dx[8] = {1, 2, 2, 1, -1, -2, -2, -1};
static const int step_dy[8] = {2, 1, -1, -2, -2, -1, 1, 2};

static bool on_board(const struct tx_geometry *geo, int x, int y)
{
    return x >= 0 && y >= 0 && x < geo->width && y < geo->height;
}

static bool is_corner(const struct tx_geometry *geo, int x, int y)
{
    return (x == 0 || x == geo->width - 1) && (y == 0 || y == geo->height - 1);
}

/* A hole that exists: on the board and not a corner. */
static bool exists(const struct tx_geometry *geo, int x, int y)
{
    return on_board(geo, x, y) && !is_corner(geo, x, y);
}

/* Sign of the cross product (b - a) x (c - a): which side of line ab c is. */
static int orientation(int ax, int ay, int bx, int by, int cx, int cy)
{
    long v = (long)(bx - ax) * (cy - ay) - (long)(by - ay) * (cx - ax);
    return (v > 0) - (v < 0);
}

/* True when segments p1p2 and p3p4 intersect in a point that is not a shared
 * endpoint. A knight segment has no lattice point inside it, so an endpoint
 * of one never lies inside the other and collinear overlap cannot happen:
 * the strict test (each segment's ends on opposite sides of the other's
 * line) is exact. */
static bool segments_cross(const int p[4], const int q[4])
{
    int o1 = orientation(p[0], p[1], p[2], p[3], q[0], q[1]);
    int o2 = orientation(p[0], p[1], p[2], p[3], q[2], q[3]);
    int o3 = orientation(q[0], q[1], q[2], q[3], p[0], p[1]);
    int o4 = orientation(q[0], q[1], q[2], q[3], p[2], p[3]);
    return o1 * o2 < 0 && o3 * o4 < 0;
}

/* Fills geo->crossing[link] for the link from (x, y) along direction d. Any
 * crossing link lies within 2 columns and 3 rows of (x, y), so the
 * candidates are the links starting in that window. */
static void find_crossings(struct tx_geometry *geo, int x, int y, int d)
{
    int n = geo->width;
    int link = (y * n + x) * 4 + d;
    int p[4] = {x, y, x + step_dx[d], y + step_dy[d]};
    int found = 0, kept = 0;

    for (int cy = y - 3; cy <= y + 3; cy++) {
        for (int cx = x - 2; cx <= x + 2; cx++) {
            for (int cd = 0; cd < 4; cd++) {
                int q[4] = {cx, cy, cx + step_dx[cd], cy + step_dy[cd]};
                if (!segments_cross(p, q))
                    continue;
                found++;
                if (exists(geo, q[0], q[1]) && exists(geo, q[2], q[3])) {
                    assert(kept < TX_CROSSINGS);
                    geo->crossing[link][kept++] = (uint16_t)((cy * n + cx) * 4 + cd);
                }
            }
        }
    }
    assert(found == TX_CROSSINGS);
    (void)found;
}

/* Carves the tables out of one allocation after the struct, each aligned
 * for its type (every size is a multiple of 4 bytes, the struct's of 8). */
static void *carve(char **p, size_t bytes)
{
    void *at = *p;
    *p += (bytes + 7) & ~(size_t)7;
    return at;
}

int tx_geometry_new(int width, int height, struct tx_geometry **ret)
{
    if (width < TX_SIDE_MIN || width > TX_SIDE_MAX || height < TX_SIDE_MIN || height > TX_SIDE_MAX)
        return -EINVAL;

    size_t holes = (size_t)width * (size_t)height, ids = holes * 4;
    size_t zone = holes, neighbour = holes * sizeof(int16_t[8]),
           link_of = holes * sizeof(uint16_t[8]), link_end = ids * sizeof(int16_t[2]),
           crossing = ids * sizeof(uint16_t[TX_CROSSINGS]), name = holes * sizeof(char[8]);
    size_t all = sizeof(struct tx_geometry) + (zone + 7) / 8 * 8 + neighbour + link_of + link_end +
                 (crossing + 7) / 8 * 8 + name;
    struct tx_geometry *geo = tx_xmalloc(all);
    char *p = (char *)(geo + 1);

    geo->width = width;
    geo->height = height;
    geo->holes = (int)holes;
    geo->link_ids = (int)ids;
    geo->zone = carve(&p, zone);
    geo->neighbour = carve(&p, neighbour);
    geo->link_of = carve(&p, link_of);
    geo->link_end = carve(&p, link_end);
    geo->crossing = carve(&p, crossing);
    geo->name = carve(&p, name);
    assert((size_t)(p - (char *)geo) <= all);
    memset(geo->zone, 0, zone);
    memset(geo->neighbour, 0xff, neighbour);
    memset(geo->link_of, 0xff, link_of);
    memset(geo->link_end, 0xff, link_end);
    memset(geo->crossing, 0xff, crossing);
    geo->playable[0] = geo->playable[1] = 0;

    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            int h = y * width + x;
            uint8_t z = 0;
            if (y == 0)
                z |= TX_ZONE_ROW_FIRST;
            if (y == height - 1)
                z |= TX_ZONE_ROW_LAST;
            if (x == 0)
                z |= TX_ZONE_COL_FIRST;
            if (x == width - 1)
                z |= TX_ZONE_COL_LAST;
            if (is_corner(geo, x, y))
                z |= TX_ZONE_CORNER;
            else {
                if (x != 0 && x != width - 1) {
                    z |= TX_ZONE_PLAYER0_OK;
                    geo->playable[0]++;
                }
                if (y != 0 && y != height - 1) {
                    z |= TX_ZONE_PLAYER1_OK;
                    geo->playable[1]++;
                }
            }
            geo->zone[h] = z;
            memset(geo->name[h], 0, sizeof geo->name[h]);
            geo->name[h][7] = (char)tx_hole_format(x, y, geo->name[h]);
        }
    }

    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            int h = y * width + x;
            if (!exists(geo, x, y))
                continue;
            for (int k = 0; k < 8; k++) {
                int nx = x + step_dx[k], ny = y + step_dy[k];
                if (!exists(geo, nx, ny))
                    continue;
                int nb = ny * width + nx;
                int link = k < 4 ? h * 4 + k : nb * 4 + (k - 4);
                geo->neighbour[h][k] = (int16_t)nb;
                geo->link_of[h][k] = (uint16_t)link;
                if (k < 4) {
                    geo->link_end[link][0] = (int16_t)h;
                    geo->link_end[link][1] = (int16_t)nb;
                    find_crossings(geo, x, y, k);
                }
            }
        }
    }
    *ret = geo;
    return 0;
}

void tx_geometry_free(struct tx_geometry *geo)
{
    free(geo);
}

int tx_geometry_hole(const struct tx_geometry *geo, int x, int y)
{
    if (!on_board(geo, x, y))
        return -1;
    return y * geo->width + x;
}

int tx_geometry_mirror(const struct tx_geometry *geo, int hole)
{
    assert(hole >= 0 && hole < geo->holes && tx_geometry_square(geo));
    return tx_geometry_x(geo, hole) * geo->width + tx_geometry_y(geo, hole);
}

bool tx_geometry_playable(const struct tx_geometry *geo, int player, int hole)
{
    if (hole < 0 || hole >= geo->holes)
        return false;
    return geo->zone[hole] & (player == 0 ? TX_ZONE_PLAYER0_OK : TX_ZONE_PLAYER1_OK);
}

int tx_geometry_link(const struct tx_geometry *geo, int a, int b)
{
    if (a < 0 || b < 0 || a >= geo->holes || b >= geo->holes)
        return -1;
    for (int k = 0; k < 8; k++)
        if (geo->neighbour[a][k] == b)
            return geo->link_of[a][k];
    return -1;
}
