#pragma once

// The HTML pieces the task presenters share (widgets/taskpresenter.h and the presenters
// of widgets/tasks/): colour swatches, an answer marked against its gold, tags marked in
// a completion. GUI thread only (tr()).

#include "rewardhtml.h"

#include <QList>
#include <QPair>
#include <QString>

#include <initializer_list>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rwb::widgets::presenterhtml {

using RewardHtml::escape;

QString str(const std::string &s);
// The UTF-16 index (QString position) of code point `codePoint` of `text`.
int utf16Offset(const QString &text, qsizetype codePoint);
// `label` on a `colour` background.
QString swatch(const char *colour, const QString &label);

// Colours of the completion's tags and of the answer block.
inline constexpr const char *kTagColour = "#7a3db8";
inline constexpr const char *kAnswerBlockColour = "#dde9ff";
// The e-mail's marks (the Reward Designer's).
inline constexpr const char *kAnswerColour = "#b8d8ff";
inline constexpr const char *kGoldColour = "#bfe8c0";
inline constexpr const char *kMarkerColour = "#f4c2c2";

// answer and gold (UTF-8) with their longest common substring green, the rest of the
// answer red and the rest of the gold orange.
std::pair<QString, QString> markedPair(const std::string &answer, const std::string &gold);
// Two table rows: the answer and the gold, as markedPair gives them.
QString pairRows(const QString &answerLabel, const QString &goldLabel, const std::pair<QString, QString> &p);
// The legend of markedPair's colours.
QString legendOfPair();
// Every occurrence of each needle in `text` marked with its colour (first needle wins on overlap).
QString markOccurrences(const QString &text, const QList<QPair<QString, const char *>> &needles);

// Bytes of `text` marked by kind (0 plain); each run rendered by `render(kind, escaped run)`.
// Runs split only where kinds change, which callers put at ASCII tag edges.
template <class Render>
QString renderRuns(const std::string &text, const std::vector<int> &kind, Render render)
{
    QString body;
    size_t start = 0;
    for (size_t i = 1; i <= text.size(); ++i) {
        if (i < text.size() && kind[i] == kind[start])
            continue;
        body += render(kind[start], escape(str(text.substr(start, i - start))));
        start = i;
    }
    return text.empty() ? QStringLiteral("<i>∅</i>") : body;
}

// kind[b] = value for the bytes of every occurrence of each tag.
void markTags(const std::string &text, std::vector<int> &kind, std::initializer_list<std::string_view> tags, int value);
// A tag's run, bold in the tag colour.
QString tagRun(const QString &part);

} // namespace rwb::widgets::presenterhtml
