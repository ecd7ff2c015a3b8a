#include "judgeverdictsummary.h"

#include "reward/judgekind.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rwb::widgets {

namespace {

// Compact JSON of another shape is cut to this many characters.
constexpr int kOtherChars = 80;
// An item of an all-items verdict counts as met from this verdict on.
constexpr double kMetFrom = 0.5;

QString number(double v)
{
    // 7 → "7", 7.5 → "7.5", 6.8123 → "6.81"
    return QString::number(v, 'g', 3);
}

} // namespace

JudgeVerdictSummary JudgeVerdictSummary::read(const std::string &verdictJson, const std::string &reward)
{
    JudgeVerdictSummary s;
    if (verdictJson.empty())
        return s;
    QJsonParseError error{};
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(verdictJson), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject())
        return s;
    const QJsonObject o = doc.object();
    s.fallback = o.value(QLatin1String("fallback")).toBool(false);
    const QJsonObject span = o.value(QLatin1String("span")).toObject();
    if (span.contains(QLatin1String("begin")) && span.contains(QLatin1String("end"))) {
        s.spanBegin = span.value(QLatin1String("begin")).toInteger(-1);
        s.spanEnd = span.value(QLatin1String("end")).toInteger(-1);
        s.spanForm = span.value(QLatin1String("form")).toString();
    }
    if (o.contains(QLatin1String("coverage")) && o.contains(QLatin1String("contradiction"))) {
        s.kind = Kind::Legal;
        s.coverage = o.value(QLatin1String("coverage")).toDouble(s.coverage);
        s.contradiction = o.value(QLatin1String("contradiction")).toBool();
    } else if (o.value(QLatin1String("items")).isArray()) {
        s.kind = Kind::RubricAllItems;
        const QJsonArray items = o.value(QLatin1String("items")).toArray();
        s.items = static_cast<int>(items.size());
        for (const QJsonValue &item : items)
            if (item.toObject().value(QLatin1String("c")).toDouble() >= kMetFrom)
                ++s.itemsMet;
    } else if (o.contains(QLatin1String("criterion"))) {
        s.kind = Kind::RubricItem;
        s.c = o.value(QLatin1String("c")).toDouble(s.c);
        if (o.value(QLatin1String("met")).isBool())
            s.met = o.value(QLatin1String("met")).toBool();
        if (o.value(QLatin1String("score")).isDouble())
            s.score = o.value(QLatin1String("score")).toDouble();
    } else if (o.contains(QLatin1String("rating"))) {
        s.kind = Kind::Rating;
        s.rating = o.value(QLatin1String("rating")).toDouble(s.rating);
        if (o.value(QLatin1String("geval")).isDouble())
            s.geval = o.value(QLatin1String("geval")).toDouble();
    } else {
        s.kind = Kind::Other;
        if (const std::shared_ptr<const reward::JudgeKind> kind = reward::findJudgeKind(reward)) {
            s.other = QString::fromStdString(kind->verdictLine(verdictJson));
            if (!s.other.isEmpty())
                return s;
        }
        s.other = QString::fromUtf8(doc.toJson(QJsonDocument::Compact));
        if (s.other.size() > kOtherChars)
            s.other = s.other.left(kOtherChars - 1) + QChar(0x2026);
    }
    return s;
}

QString JudgeVerdictSummary::text() const
{
    QString t;
    switch (kind) {
    case Kind::Missing:
        return {};
    case Kind::Legal: {
        const QString cov = coverage >= 1.0 ? QCoreApplication::translate("JudgeVerdictSummary", "full")
                            : coverage > 0.0 ? QCoreApplication::translate("JudgeVerdictSummary", "partial")
                                             : QCoreApplication::translate("JudgeVerdictSummary", "none");
        const QString con = contradiction ? QCoreApplication::translate("JudgeVerdictSummary", "contradiction")
                                          : QCoreApplication::translate("JudgeVerdictSummary", "no contradiction");
        t = QStringLiteral("%1 / %2").arg(cov, con);
        break;
    }
    case Kind::RubricItem:
        if (met)
            t = *met ? QCoreApplication::translate("JudgeVerdictSummary", "met")
                     : QCoreApplication::translate("JudgeVerdictSummary", "not met");
        else if (score)
            t = QCoreApplication::translate("JudgeVerdictSummary", "score %1/10").arg(number(*score));
        else
            t = QCoreApplication::translate("JudgeVerdictSummary", "verdict %1").arg(number(c));
        break;
    case Kind::RubricAllItems:
        t = QCoreApplication::translate("JudgeVerdictSummary", "%1 of %2 met").arg(itemsMet).arg(items);
        break;
    case Kind::Rating:
        t = QCoreApplication::translate("JudgeVerdictSummary", "rating %1").arg(number(rating));
        if (geval)
            t += QLatin1Char(' ') + QCoreApplication::translate("JudgeVerdictSummary", "(G-Eval %1)").arg(number(*geval));
        break;
    case Kind::Other:
        return other;
    }
    if (fallback)
        t += QLatin1Char(' ') + QCoreApplication::translate("JudgeVerdictSummary", "(fallback)");
    return t;
}

} // namespace rwb::widgets
