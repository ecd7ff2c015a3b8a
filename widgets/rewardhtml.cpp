#include "rewardhtml.h"
#include "rewardvalue.h"

#include <QCoreApplication>
#include <QList>

#include <cmath>

namespace RewardHtml {

namespace {

QString fromUcs4(const QList<uint> &cps, qsizetype from, qsizetype n)
{
    const QList<uint> p = cps.mid(from, n);
    return QString::fromUcs4(reinterpret_cast<const char32_t *>(p.constData()), p.size());
}

QString coloured(const QString &escaped, const char *colour)
{
    if (!colour || escaped.isEmpty())
        return escaped;
    return QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(colour), escaped);
}

} // namespace

QString escape(const QString &text)
{
    QString e = text.toHtmlEscaped();
    e.replace(QLatin1Char('\n'), QStringLiteral("<br>"));
    return e;
}

QString markSpan(const std::string &utf8, rwb::reward::Span span, const char *inside, const char *outside)
{
    const QList<uint> cps = QString::fromStdString(utf8).toUcs4();
    if (cps.isEmpty())
        return QStringLiteral("<i>∅</i>");
    const auto b = std::min(static_cast<qsizetype>(span.begin), cps.size());
    const auto l = std::min(static_cast<qsizetype>(span.length), cps.size() - b);
    return coloured(escape(fromUcs4(cps, 0, b)), outside) + coloured(escape(fromUcs4(cps, b, l)), inside) +
           coloured(escape(fromUcs4(cps, b + l, cps.size() - b - l)), outside);
}

QString highlightSpan(const std::string &utf8, rwb::reward::Span span, const char *colour)
{
    return markSpan(utf8, span, colour, nullptr);
}

QString componentTable(const QVector<ComponentRow> &rows, double total)
{
    QString h = QStringLiteral("<table cellspacing=0 cellpadding=3 border=1 style=\"border-collapse:collapse\">");
    h += QStringLiteral("<tr><th>%1</th><th>%2</th><th>%3</th><th>%4</th><th align=left>%5</th></tr>")
             .arg(QCoreApplication::translate("RewardHtml", "Reward"), QCoreApplication::translate("RewardHtml", "Value"), QCoreApplication::translate("RewardHtml", "Weight"), QCoreApplication::translate("RewardHtml", "Contribution"), QCoreApplication::translate("RewardHtml", "Why"));
    double wsum = 0.0;
    for (const ComponentRow &r : rows)
        wsum += r.weight;
    for (const ComponentRow &r : rows) {
        const QString style = r.weight == 0.0 ? QStringLiteral(" style=\"color:gray\"") : QString();
        const bool known = !std::isnan(r.value);
        const QString none = QStringLiteral("<span style=\"color:#c62828\">%1</span>").arg(RewardValue::noneText());
        const QString value = known ? QString::number(r.value, 'f', 3) : r.none ? none : QStringLiteral("—");
        const QString contribution = wsum > 0.0 && known ? QString::number(r.weight * r.value / wsum, 'f', 3)
                                     : r.none && r.weight > 0.0 ? none
                                                                : QStringLiteral("—");
        h += QStringLiteral("<tr%1><td><b>%2</b></td><td align=right>%3</td><td align=right>%4</td><td align=right>%5</td><td>%6</td></tr>")
                 .arg(style, escape(r.name), value, QString::number(r.weight, 'g', 4), contribution, escape(r.why));
    }
    h += QStringLiteral("<tr><td><b>%1</b></td><td align=right><b>%2</b></td><td></td><td></td><td>%3</td></tr></table>")
             .arg(QCoreApplication::translate("RewardHtml", "Total"), RewardValue::format(total, 3), QCoreApplication::translate("RewardHtml", "Σ weight·value / Σ weight"));
    return h;
}

} // namespace RewardHtml
