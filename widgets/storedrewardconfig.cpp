#include "storedrewardconfig.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace rwb::widgets {

StoredRewardConfig readStoredRewardConfig(const std::string &json)
{
    StoredRewardConfig c;
    const QJsonObject o = QJsonDocument::fromJson(QByteArray::fromStdString(json)).object();
    c.thinking = o.value(QLatin1String("thinking")).toBool();
    for (const QJsonValue &v : o.value(QLatin1String("components")).toArray()) {
        c.names.append(v.toObject().value(QLatin1String("reward")).toString());
        c.weights.append(v.toObject().value(QLatin1String("weight")).toDouble());
    }
    return c;
}

} // namespace rwb::widgets
