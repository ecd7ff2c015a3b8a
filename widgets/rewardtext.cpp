#include "rewardtext.h"

#include "tasks/extraction/extraction.h"
#include "reward/reward.h"

#include <QCoreApplication>

namespace RewardText {

namespace {
QString num(double v)
{
    return QString::number(v, 'f', 3);
}

// "{17, 22}", "{}" for none.
QString codes(const std::vector<int64_t> &v)
{
    QStringList parts;
    for (int64_t c : v)
        parts << QString::number(c);
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}
} // namespace

QString description(const QString &reward)
{
    if (reward == QLatin1String("partial"))
        return QCoreApplication::translate("RewardText", "Longest common substring of answer and gold: 2·LCS / (|answer| + |gold|).");
    if (reward == QLatin1String("marker"))
        return QCoreApplication::translate("RewardText", "Like partial, after removing legal-entity markers (株式会社, (株), …) from both.");
    if (reward == QLatin1String("exist"))
        return QCoreApplication::translate("RewardText", "1 when the answer occurs in the sender header or the e-mail body (or both are 不明).");
    if (reward == QLatin1String("format"))
        return QCoreApplication::translate("RewardText", "1 when the completion is <thinking>…</thinking> followed by <answer>…</answer>.");
    if (reward == QLatin1String("domain"))
        return QCoreApplication::translate("RewardText", "Best match between the romanized answer (or a synonym) and the sender's e-mail domain.");
    if (reward == QLatin1String("xml_format"))
        return QCoreApplication::translate("RewardText", "1 when the completion is <reasoning>…</reasoning>, <answer>…</answer> and <citation>…</citation>, in that order and nothing else.");
    if (reward == QLatin1String("non_hallucination"))
        return QCoreApplication::translate("RewardText", "0.5 when the format holds and at least one cited law code is among the sections in the prompt.");
    if (reward == QLatin1String("citation_f1"))
        return QCoreApplication::translate("RewardText", "F1 of the cited law codes against the gold law codes.");
    if (reward == QLatin1String("coverage"))
        return QCoreApplication::translate("RewardText", "An LLM judge's coverage of the reference answer's points: none 0, partial 0.5, full 1.");
    if (reward == QLatin1String("consistency"))
        return QCoreApplication::translate("RewardText", "1 when an LLM judge finds nothing in the answer that contradicts the reference answer, else 0.");
    if (reward == QLatin1String("rubric_explicit"))
        return QCoreApplication::translate("RewardText", "Each rubric item judged met or not; Σ weight·verdict over the positive weights (a met pitfall subtracts).");
    if (reward == QLatin1String("rubric_implicit"))
        return QCoreApplication::translate("RewardText", "An LLM judge's 1–10 rating given the whole rubric, mapped to (r − 1) / 9.");
    if (reward == QLatin1String("likert_simple"))
        return QCoreApplication::translate("RewardText", "An LLM judge's 1–10 rating of the answer alone, mapped to (r − 1) / 9.");
    if (reward == QLatin1String("likert_reference"))
        return QCoreApplication::translate("RewardText", "An LLM judge's 1–10 rating of the answer against the reference answer, mapped to (r − 1) / 9.");
    if (reward == QLatin1String("answer_f1"))
        return QCoreApplication::translate("RewardText", "F1 of the answer's tokens against the gold answer's (numbers and Latin words whole, other characters one by one); 0 without an answer.");
    if (reward == QLatin1String("answer_em"))
        return QCoreApplication::translate("RewardText", "1 when the answer equals the gold answer after normalization, else 0.");
    if (reward == QLatin1String("step_format"))
        return QCoreApplication::translate("RewardText", "1 when the completion follows the step format (<step>, <subquery>, <retrieval>, <subanswer>) through at least one retrieval to an <answer>.");
    if (reward == QLatin1String("semantic"))
        return QCoreApplication::translate("RewardText", "Cosine similarity of the answer and the reference answer under the configured embedding (negative counts as 0).");
    return {};
}

QString explanation(const rwb::reward::Explanation &e)
{
    using rwb::reward::Reason;
    switch (e.reason) {
    case Reason::Compared:
        return QCoreApplication::translate("RewardText", "Common substring of %1 characters; answer %2, gold %3 characters: 2·%1 / (%2 + %3) = %4.")
            .arg(e.answerSpan.length)
            .arg(QString::fromStdString(e.answer).size())
            .arg(QString::fromStdString(e.gold).size())
            .arg(num(e.value));
    case Reason::BothEmpty:
        return QCoreApplication::translate("RewardText", "Answer and gold are both empty: 1.");
    case Reason::OneEmpty:
        return e.answer.empty() ? QCoreApplication::translate("RewardText", "The compared answer is empty: 0.") : QCoreApplication::translate("RewardText", "The compared gold is empty: 0.");
    case Reason::MarkersOnly:
        return QCoreApplication::translate("RewardText", "Both are only legal-entity markers, so the unstripped strings are compared: %1.").arg(num(e.value));
    case Reason::BothUnknown:
        return QCoreApplication::translate("RewardText", "Gold and answer are both 不明: 1.");
    case Reason::FoundInSource:
        return QCoreApplication::translate("RewardText", "The answer occurs in the sender header or the e-mail body: 1.");
    case Reason::NotInSource:
        return QCoreApplication::translate("RewardText", "The answer occurs nowhere in the sender header or the e-mail body: 0.");
    case Reason::EmptyAnswer:
        return QCoreApplication::translate("RewardText", "The answer is empty: 0.");
    case Reason::FormatOk:
        return QCoreApplication::translate("RewardText", "The completion is <thinking>…</thinking> followed by <answer>…</answer>: 1.");
    case Reason::FormatBad:
        switch (static_cast<rwb::reward::FormatCheck>(e.formatCheck)) {
        case rwb::reward::FormatCheck::NoThinkingOpen:
            return QCoreApplication::translate("RewardText", "The completion does not start with <thinking>: 0.");
        case rwb::reward::FormatCheck::NoThinkingClose:
            return QCoreApplication::translate("RewardText", "</thinking> is missing: 0.");
        case rwb::reward::FormatCheck::NoAnswerOpen:
            return QCoreApplication::translate("RewardText", "</thinking> is not followed by <answer>: 0.");
        case rwb::reward::FormatCheck::NoAnswerClose:
            return QCoreApplication::translate("RewardText", "</answer> is missing: 0.");
        case rwb::reward::FormatCheck::TrailingText:
            return QCoreApplication::translate("RewardText", "There is text after </answer>: 0.");
        case rwb::reward::FormatCheck::NestedTag:
            return QCoreApplication::translate("RewardText", "A block contains another opening tag: 0.");
        case rwb::reward::FormatCheck::Ok:
            break;
        }
        return QCoreApplication::translate("RewardText", "The format does not match: 0.");
    case Reason::UnknownAnswer:
        return QCoreApplication::translate("RewardText", "The answer is 不明, so there is nothing to compare with the domain: 0.");
    case Reason::NoAddress:
        return QCoreApplication::translate("RewardText", "The sender header has no e-mail address: 0.");
    case Reason::BestCandidate: {
        const int n = static_cast<int>(e.candidates.size());
        return QCoreApplication::translate("RewardText", "Best of %n romanized candidate(s) against the domain \"%1\": %2.",
                                           nullptr, n)
            .arg(QString::fromStdString(e.domain), num(e.value));
    }
    case Reason::XmlFormatOk:
        return QCoreApplication::translate("RewardText", "The completion has the <reasoning>, <answer>, <citation> format: 1.");
    case Reason::XmlFormatBad:
        return QCoreApplication::translate("RewardText", "The format does not hold (%1): 0.").arg(QString::fromStdString(e.formatName));
    case Reason::CitedRetrieved:
        return QCoreApplication::translate("RewardText", "Cites %1; at least one of them is in the prompt (%2): 0.5.")
            .arg(codes(e.cited), codes(e.retrievedCodes));
    case Reason::NothingRetrievedCited:
        return QCoreApplication::translate("RewardText", "Cites %1; none of them is in the prompt (%2): 0.")
            .arg(codes(e.cited), codes(e.retrievedCodes));
    case Reason::FormatBroken:
        return QCoreApplication::translate("RewardText", "The format does not hold (%1), so no citation counts: 0.")
            .arg(QString::fromStdString(e.formatName));
    case Reason::CitationsCompared:
        return QCoreApplication::translate("RewardText", "Cited %1 against gold %2: precision %3, recall %4, F1 %5.")
            .arg(codes(e.cited), codes(e.goldCodes), num(e.precision), num(e.recall), num(e.value));
    case Reason::SemanticCompared:
        return QCoreApplication::translate("RewardText", "Similarity of the answer to the reference answer under %1: %2.")
            .arg(QString::fromStdString(e.embedder), num(e.value));
    case Reason::AnswerF1:
        return QCoreApplication::translate("RewardText", "Answer \"%1\" against gold \"%2\": precision %3, recall %4, F1 %5.")
            .arg(QString::fromStdString(e.answer), QString::fromStdString(e.gold), num(e.precision), num(e.recall), num(e.value));
    case Reason::AnswerEm:
        return e.value == 1.0 ? QCoreApplication::translate("RewardText", "The answer \"%1\" equals the gold answer: 1.").arg(QString::fromStdString(e.answer))
                              : QCoreApplication::translate("RewardText", "The answer \"%1\" is not the gold answer \"%2\": 0.")
                                    .arg(QString::fromStdString(e.answer), QString::fromStdString(e.gold));
    case Reason::NoAnswer:
        return QCoreApplication::translate("RewardText", "The completion has no <answer> block: 0.");
    case Reason::StepFormatOk:
        return QCoreApplication::translate("RewardText", "The step format holds through %n retrieval hop(s) to an answer: 1.", nullptr, e.hops);
    case Reason::StepFormatBad:
        return QCoreApplication::translate("RewardText", "The step format does not hold (%1): 0.").arg(QString::fromStdString(e.formatName));
    case Reason::JudgeVerdict: {
        const int calls = static_cast<int>(e.decisions.size());
        return QCoreApplication::translate("RewardText", "The judge's verdict gives %1 (%n call(s)).", nullptr, calls)
            .arg(num(e.value));
    }
    case Reason::Custom:
        return QString::fromStdString(e.detail);
    case Reason::JudgeFailed:
        return QCoreApplication::translate("RewardText", "The judge gave no verdict, so the reward is None and GRPO leaves this rollout out of its group: %1")
            .arg(QString::fromStdString(e.detail));
    }
    return {};
}

} // namespace RewardText
