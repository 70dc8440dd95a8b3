/*
 * fleet_render.h — `vpsbench fleet` output: a text table, JSON
 * ("vpsbench.fleet/1"), CSV, and an HTML page of strip charts.
 */
#ifndef VPSBENCH_FLEET_RENDER_H
#define VPSBENCH_FLEET_RENDER_H

#include <stdio.h>

#include "grade/fleet.h"
#include "render/render.h"

void fleet_text(FILE *f, const struct fleet *fl, const struct render_style *st);
/* malloc'd, NULL without cJSON or memory */
char *fleet_json(const struct fleet *fl);
/* 0, or -1 on a write error */
int fleet_csv(FILE *f, const struct fleet *fl);
int fleet_html(FILE *f, const struct fleet *fl);

#endif
