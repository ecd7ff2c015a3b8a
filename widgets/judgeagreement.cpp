#include "judgeagreement.h"

#include "judgeverdictsummary.h"

#include "tasks/legalqa/legaljudgeagreement.h"

#include <QCoreApplication>

#include <cmath>

namespace rwb::widgets::JudgeAgreement {

GradedQuantity quantity(const QString &reward, const JudgeVerdictSummary &verdict, double value)
{
    if (reward == QLatin1String("coverage"))
        return GradedQuantity::Coverage;
    if (reward == QLatin1String("consistency"))
        return GradedQuantity::Consistency;
    if (verdict.kind != JudgeVerdictSummary::Kind::Legal)
        return GradedQuantity::None;
    return value == verdict.coverage ? GradedQuantity::Coverage : GradedQuantity::Consistency;
}

int labelCount(GradedQuantity q)
{
    switch (q) {
    case GradedQuantity::Coverage: return 3;
    case GradedQuantity::Consistency: return 2;
    case GradedQuantity::None: break;
    }
    return 0;
}

int label(GradedQuantity q, double value)
{
    if (std::isnan(value))
        return -1;
    switch (q) {
    case GradedQuantity::Coverage: return judge::coverageLabel(value);
    case GradedQuantity::Consistency: return judge::consistencyLabel(value);
    case GradedQuantity::None: break;
    }
    return -1;
}

QString labelName(GradedQuantity q, int label)
{
    if (q == GradedQuantity::Coverage) {
        switch (label) {
        case 0: return QCoreApplication::translate("JudgeAgreement", "none");
        case 1: return QCoreApplication::translate("JudgeAgreement", "partial");
        case 2: return QCoreApplication::translate("JudgeAgreement", "full");
        default: break;
        }
    } else if (q == GradedQuantity::Consistency) {
        switch (label) {
        case 0: return QCoreApplication::translate("JudgeAgreement", "contradiction");
        case 1: return QCoreApplication::translate("JudgeAgreement", "consistent");
        default: break;
        }
    }
    return {};
}

} // namespace rwb::widgets::JudgeAgreement
