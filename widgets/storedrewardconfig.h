#pragma once

#include <QStringList>
#include <QVector>
#include <string>

namespace rwb::widgets {

// A reward config as a run store keeps it (reward::toJson), read leniently: a stored
// config may name a reward this build does not have, which reward::parseRewardConfig
// would refuse. Components in config order.
struct StoredRewardConfig {
    QStringList names;
    QVector<double> weights;
    bool thinking = false;
};
StoredRewardConfig readStoredRewardConfig(const std::string &json);

} // namespace rwb::widgets
