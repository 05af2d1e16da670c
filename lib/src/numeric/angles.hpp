// Angles in degrees as the scene format reads them (box_ellipse.cpp, SPEC §2.5).
#pragma once

namespace collide::detail {

/// cos and sin of an angle in degrees: exactly 0 and +-1 at multiples of 90, else the double
/// results of std::cos and std::sin of (angle mod 360) * pi / 180, where angle mod 360 is
/// fmod(angle, 360) plus 360 when negative (so -45 and 315 give the same doubles).
void cos_sin(double degrees, double& c, double& s);

}  // namespace collide::detail
