#include "jobkinds.h"

#include <QDateTime>
#include <QDir>
#include <QFileInfo>

QString JobContext::jobsDir() const
{
    return workspace ? QDir(workspace->dir()).filePath(QStringLiteral("jobs")) : QDir::currentPath();
}

QString JobContext::freshPath(const QString &stem, const QString &suffix) const
{
    const QDir dir(jobsDir());
    const QString base = stem + QLatin1Char('-') + QDateTime::currentDateTime().toString(QStringLiteral("yyyyMMdd-HHmmss"));
    QString path = dir.filePath(base + suffix);
    for (int n = 2; QFileInfo::exists(path); ++n)
        path = dir.filePath(base + QLatin1Char('-') + QString::number(n) + suffix);
    return path;
}

QStringList JobContext::models() const
{
    return workspace ? workspace->models() : QStringList();
}
