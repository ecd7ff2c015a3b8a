#include "presenterhtml.h"

#include "text/lcs.h"
#include "text/utf8.h"

#include <QCoreApplication>
#include <QVector>

#include <algorithm>

namespace rwb::widgets::presenterhtml {

QString str(const std::string &s)
{
    return QString::fromStdString(s);
}

int utf16Offset(const QString &text, qsizetype codePoint)
{
    int pos = 0;
    for (qsizetype cp = 0; cp < codePoint && pos < text.size(); ++cp)
        pos += (text.at(pos).isHighSurrogate() && pos + 1 < text.size() && text.at(pos + 1).isLowSurrogate()) ? 2 : 1;
    return pos;
}

QString swatch(const char *colour, const QString &label)
{
    return QStringLiteral("<span style=\"background:%1\">%2</span>").arg(QLatin1String(colour), label);
}

std::pair<QString, QString> markedPair(const std::string &answer, const std::string &gold)
{
    const text::CommonSubstring c = text::longestCommonSubstring(text::decodeUtf8(answer), text::decodeUtf8(gold));
    return {RewardHtml::markSpan(answer, {c.posA, c.length}, RewardHtml::kSameColour, RewardHtml::kExtraColour),
            RewardHtml::markSpan(gold, {c.posB, c.length}, RewardHtml::kSameColour, RewardHtml::kMissingColour)};
}

QString pairRows(const QString &answerLabel, const QString &goldLabel, const std::pair<QString, QString> &p)
{
    return QStringLiteral("<tr><td>%1</td><td><tt>%2</tt></td></tr><tr><td>%3</td><td><tt>%4</tt></td></tr>")
        .arg(answerLabel, p.first, goldLabel, p.second);
}

QString legendOfPair()
{
    return QStringLiteral("<p>%1 %2 %3</p>")
        .arg(swatch(RewardHtml::kSameColour, QCoreApplication::translate("TaskPresenter", "in both")), swatch(RewardHtml::kExtraColour, QCoreApplication::translate("TaskPresenter", "only in the answer")),
             swatch(RewardHtml::kMissingColour, QCoreApplication::translate("TaskPresenter", "missing from the answer")));
}

QString markOccurrences(const QString &text, const QList<QPair<QString, const char *>> &needles)
{
    QVector<const char *> colour(text.size(), nullptr);
    for (const auto &[needle, c] : needles) {
        if (needle.isEmpty())
            continue;
        for (qsizetype pos = text.indexOf(needle); pos >= 0; pos = text.indexOf(needle, pos + needle.size()))
            for (qsizetype i = pos; i < pos + needle.size(); ++i)
                if (!colour[i])
                    colour[i] = c;
    }
    QString out;
    const char *current = nullptr;
    QString run;
    auto flush = [&] {
        if (run.isEmpty())
            return;
        out += current ? swatch(current, escape(run)) : escape(run);
        run.clear();
    };
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (colour[i] != current) {
            flush();
            current = colour[i];
        }
        run += text[i];
    }
    flush();
    return out;
}

void markTags(const std::string &text, std::vector<int> &kind, std::initializer_list<std::string_view> tags, int value)
{
    for (std::string_view tag : tags)
        for (size_t pos = text.find(tag); pos != std::string::npos; pos = text.find(tag, pos + tag.size()))
            std::fill(kind.begin() + static_cast<std::ptrdiff_t>(pos),
                      kind.begin() + static_cast<std::ptrdiff_t>(pos + tag.size()), value);
}

QString tagRun(const QString &part)
{
    return QStringLiteral("<b><span style=\"color:%1\">%2</span></b>").arg(QLatin1String(kTagColour), part);
}

} // namespace rwb::widgets::presenterhtml
