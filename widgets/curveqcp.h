#pragma once

// QCustomPlot 2.1's header uses Qt's keywords `signals` and `foreach`, which every Qt
// target of this project turns off (QT_NO_KEYWORDS, see STYLE.md: libtorch needs it).
// Include QCustomPlot through this header: it maps the keywords for that one header only.
#ifdef signals
#include <qcustomplot.h>
#else
#define signals Q_SIGNALS
#define foreach Q_FOREACH
#include <qcustomplot.h>
#undef foreach
#undef signals
#endif
