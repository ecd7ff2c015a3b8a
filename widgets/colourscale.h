#pragma once

#include <QColor>

namespace rwb::widgets {

// The colour scales of the group and token views, in one place so that both read alike.
// Diverging (advantage, log-prob ratio): t in [-1, 1], red below 0, white at 0, blue above.
// Sequential (entropy): t in [0, 1], white to deep purple. Values outside are clamped;
// NaN gives a neutral grey.
QColor divergingColour(double t);
QColor sequentialColour(double t);
// Black or white, whichever reads better on `background`.
QColor textColourOn(const QColor &background);

} // namespace rwb::widgets
