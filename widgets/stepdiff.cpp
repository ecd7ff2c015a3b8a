#include "stepdiff.h"

#include "rewardhtml.h"
#include "tasks/multihop/multihopformat.h"

#include <QCoreApplication>

#include <algorithm>

namespace rwb::widgets {

namespace {

std::vector<DiffSpan> spans(const std::u32string &text, const std::vector<bool> &changed)
{
    std::vector<DiffSpan> out;
    for (size_t i = 0; i < text.size(); ++i) {
        const QString c = QString::fromUcs4(&text[i], 1);
        if (out.empty() || out.back().changed != changed[i])
            out.push_back({c, changed[i]});
        else
            out.back().text += c;
    }
    return out;
}

struct Field {
    const char *tag;
    std::string text;
};

std::vector<Field> fields(const std::string &step)
{
    const task::Trajectory t = task::parseTrajectory(step);
    std::vector<Field> out;
    if (!t.hops.empty()) {
        const task::TrajectoryHop &h = t.hops.front();
        out = {{"step", h.step}, {"subquery", h.subquery}, {"retrieval", h.retrieval}, {"subanswer", h.subanswer}};
    } else if (t.answer) {
        out = {{"step", t.finalStep}, {"answer", *t.answer}};
    }
    return out;
}

QString marked(const std::vector<DiffSpan> &ss)
{
    QString html;
    for (const DiffSpan &s : ss)
        html += s.changed ? QStringLiteral("<span style=\"background:#ffd966\">%1</span>").arg(RewardHtml::escape(s.text))
                          : RewardHtml::escape(s.text);
    return html;
}

} // namespace

TextDiff diffTexts(const QString &first, const QString &second, int maxLength)
{
    const std::u32string a = first.toStdU32String(), b = second.toStdU32String();
    std::vector<bool> ca(a.size(), true), cb(b.size(), true);
    if (a == b) {
        std::fill(ca.begin(), ca.end(), false);
        std::fill(cb.begin(), cb.end(), false);
    } else if (static_cast<int>(a.size()) <= maxLength && static_cast<int>(b.size()) <= maxLength) {
        // lcs[i][j]: the LCS of a[i…] and b[j…].
        const size_t n = a.size(), m = b.size();
        std::vector<uint16_t> lcs((n + 1) * (m + 1), 0);
        const auto at = [&](size_t i, size_t j) -> uint16_t & { return lcs[i * (m + 1) + j]; };
        for (size_t i = n; i-- > 0;)
            for (size_t j = m; j-- > 0;)
                at(i, j) = a[i] == b[j] ? static_cast<uint16_t>(at(i + 1, j + 1) + 1) : std::max(at(i + 1, j), at(i, j + 1));
        size_t i = 0, j = 0;
        while (i < n && j < m) {
            if (a[i] == b[j]) {
                ca[i++] = false;
                cb[j++] = false;
            } else if (at(i + 1, j) >= at(i, j + 1)) {
                ++i;
            } else {
                ++j;
            }
        }
    }
    return {spans(a, ca), spans(b, cb)};
}

QString stepBlockHtml(const std::string &step, const std::string &other, bool markDifferences)
{
    const std::vector<Field> mine = fields(step), theirs = fields(other);
    if (mine.empty()) {
        const QString s = QString::fromStdString(step);
        return QStringLiteral("<p style=\"white-space:pre-wrap\">%1</p>")
            .arg(markDifferences ? marked(diffTexts(s, QString::fromStdString(other)).first) : RewardHtml::escape(s));
    }
    QString html;
    for (const Field &f : mine) {
        std::string counterpart;
        for (const Field &g : theirs)
            if (std::string_view(g.tag) == f.tag)
                counterpart = g.text;
        const QString text = QString::fromStdString(f.text);
        const QString body =
            markDifferences ? marked(diffTexts(text, QString::fromStdString(counterpart)).first) : RewardHtml::escape(text);
        const bool retrieval = std::string_view(f.tag) == "retrieval";
        html += QStringLiteral("<p style=\"margin:2px 0%1\"><span style=\"color:#2a5d9f;font-weight:600\">&lt;%2&gt;</span> "
                               "%3</p>")
                    .arg(retrieval ? QStringLiteral(";color:#666;font-size:small;background:#f4f4f4") : QString())
                    .arg(QLatin1String(f.tag), body);
    }
    return html;
}

} // namespace rwb::widgets
