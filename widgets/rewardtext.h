#pragma once

#include <QString>
#include <QStringList>

namespace rwb::reward {
struct Explanation;
}

// Translated, user-facing wording for core's reward vocabulary. Core speaks
// English to developers; everything a user reads goes through here.
namespace RewardText {

// A one-line description of a registered reward ("partial", "marker", …).
QString description(const QString &reward);

// Why a component gave its value, as a sentence for the detail pane (plain text).
QString explanation(const rwb::reward::Explanation &e);

// The keys of the generic components' sentences this table translates (Reason::Library),
// for the test that it has every key core sets and no other.
QStringList librarySentenceKeys();

} // namespace RewardText
