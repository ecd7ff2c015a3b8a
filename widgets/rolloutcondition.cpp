#include "rolloutcondition.h"

#include <QCoreApplication>
#include <QRegularExpression>

#include <cmath>

namespace rwb::widgets {

namespace {

using Op = store::ComponentCondition::Op;

std::optional<Op> opOf(const QString &s)
{
    if (s == QLatin1String("<"))
        return Op::Less;
    if (s == QLatin1String("<="))
        return Op::LessEqual;
    if (s == QLatin1String(">"))
        return Op::Greater;
    if (s == QLatin1String(">="))
        return Op::GreaterEqual;
    if (s == QLatin1String("==") || s == QLatin1String("="))
        return Op::Equal;
    if (s == QLatin1String("!="))
        return Op::NotEqual;
    return std::nullopt;
}

} // namespace

std::optional<std::vector<store::ComponentCondition>> RolloutCondition::parse(const QString &text, const QStringList &known,
                                                                              QString *error)
{
    auto fail = [&](const QString &message) -> std::optional<std::vector<store::ComponentCondition>> {
        if (error)
            *error = message;
        return std::nullopt;
    };
    std::vector<store::ComponentCondition> out;
    const QString trimmed = text.trimmed();
    if (trimmed.isEmpty())
        return out;
    static const QRegularExpression separator(QStringLiteral("\\s+and\\s+|&&|,"),
                                              QRegularExpression::CaseInsensitiveOption);
    // name, operator (the longest of the characters < > = !), the rest.
    static const QRegularExpression condition(QStringLiteral("^([^<>=!\\s]+)\\s*([<>=!]+)\\s*(.*)$"));
    for (const QString &part : trimmed.split(separator)) {
        const QString p = part.trimmed();
        if (p.isEmpty())
            return fail(QCoreApplication::translate("RolloutCondition", "an empty condition in \"%1\"").arg(trimmed));
        const QRegularExpressionMatch m = condition.match(p);
        if (!m.hasMatch())
            return fail(QCoreApplication::translate("RolloutCondition", "\"%1\" is not a comparison like \"marker < 0.5\"").arg(p));
        const QString name = m.captured(1);
        const std::optional<Op> op = opOf(m.captured(2));
        if (!op)
            return fail(QCoreApplication::translate("RolloutCondition", "unknown operator \"%1\" in \"%2\" (use <, <=, >, >=, == or !=)").arg(m.captured(2), p));
        const QString number = m.captured(3).trimmed();
        if (number.isEmpty())
            return fail(QCoreApplication::translate("RolloutCondition", "a number is missing after \"%1\"").arg(p));
        bool ok = false;
        const double value = number.toDouble(&ok);
        if (!ok || !std::isfinite(value))
            return fail(QCoreApplication::translate("RolloutCondition", "\"%1\" is not a number (in \"%2\")").arg(number, p));
        if (!known.isEmpty() && !known.contains(name))
            return fail(QCoreApplication::translate("RolloutCondition", "unknown component '%1' (known: %2)").arg(name, known.join(QStringLiteral(", "))));
        out.push_back({name.toStdString(), *op, value});
    }
    return out;
}

} // namespace rwb::widgets
