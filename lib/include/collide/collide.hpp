// collide/collide.hpp — the whole public API of the collide library.
//
// geometry.hpp  shapes and the exact pairwise test collide()
// scene.hpp     scene files: read_scene(), grids, moves, rules
// check.hpp     running a scene: pair selection, broad phases, results
// report.hpp    JSON, JSON Lines, CSV and text reports
// error.hpp     collide::Error, the one exception type
#pragma once

#include "collide/check.hpp"
#include "collide/error.hpp"
#include "collide/findings.hpp"
#include "collide/geometry.hpp"
#include "collide/maps.hpp"
#include "collide/render.hpp"
#include "collide/report.hpp"
#include "collide/scene.hpp"
