#include "colourscale.h"

#include <algorithm>
#include <cmath>

namespace rwb::widgets {

namespace {

// The ends of the scales (ColorBrewer RdBu and Purples).
constexpr QRgb kNegative = qRgb(178, 24, 43);
constexpr QRgb kPositive = qRgb(33, 102, 172);
constexpr QRgb kWhite = qRgb(247, 247, 247);
constexpr QRgb kSequentialEnd = qRgb(84, 39, 143);
constexpr QRgb kMissing = qRgb(200, 200, 200);

QColor mix(QRgb a, QRgb b, double t)
{
    auto channel = [t](int x, int y) { return static_cast<int>(std::lround(x + (y - x) * t)); };
    return QColor(channel(qRed(a), qRed(b)), channel(qGreen(a), qGreen(b)), channel(qBlue(a), qBlue(b)));
}

} // namespace

QColor divergingColour(double t)
{
    if (std::isnan(t))
        return QColor(kMissing);
    t = std::clamp(t, -1.0, 1.0);
    return t < 0 ? mix(kWhite, kNegative, -t) : mix(kWhite, kPositive, t);
}

QColor sequentialColour(double t)
{
    if (std::isnan(t))
        return QColor(kMissing);
    return mix(kWhite, kSequentialEnd, std::clamp(t, 0.0, 1.0));
}

QColor textColourOn(const QColor &background)
{
    // Relative luminance, sRGB weights; dark text on light colours.
    const double l = 0.2126 * background.redF() + 0.7152 * background.greenF() + 0.0722 * background.blueF();
    return l > 0.5 ? QColor(Qt::black) : QColor(Qt::white);
}

} // namespace rwb::widgets
