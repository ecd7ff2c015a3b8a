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
        // A component's name of its own, else its reward's: what its values are stored under.
        const QJsonObject comp = v.toObject();
        c.names.append(comp.contains(QLatin1String("name")) ? comp.value(QLatin1String("name")).toString()
                                                             : comp.value(QLatin1String("reward")).toString());
        c.weights.append(v.toObject().value(QLatin1String("weight")).toDouble());
    }
    return c;
}

} // namespace rwb::widgets
