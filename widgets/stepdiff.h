#pragma once

#include <QString>

#include <string>
#include <vector>

namespace rwb::widgets {

// Where two texts differ, character by character (Unicode code points): the longest
// common subsequence is kept plain and the rest of each side marked. For the two steps
// of a preference pair, whose sub-queries or sub-answers often differ by a name.
struct DiffSpan {
    QString text;
    bool changed = false;
};
struct TextDiff {
    std::vector<DiffSpan> first, second;
};
// Texts longer than `maxLength` code points each are not aligned: each side is one span,
// changed unless the texts are equal.
TextDiff diffTexts(const QString &first, const QString &second, int maxLength = 3000);

// A step block (<step>, <subquery>, <retrieval>, <subanswer> or <answer>) as HTML, a line
// a block with its tag's name, the characters that differ from the same block of `other`
// marked (nothing marked when `other` is empty: the history's steps); the retrieval in a
// smaller grey box. A text that is not in the step format is shown as it is.
QString stepBlockHtml(const std::string &step, const std::string &other, bool markDifferences);

} // namespace rwb::widgets
