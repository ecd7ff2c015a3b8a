#pragma once

// Opening a run in a view as the main window does: through a run session (RunSession).
// The sessions belong to the application object, so that each outlives the views bound to
// it (a session destroyed while its view is being destroyed would call into a half-gone
// view; the main window deletes its sessions before its views).

#include "runsession.h"

#include "store/runstore.h"

#include <QCoreApplication>
#include <QObject>
#include <QString>

namespace rwbtest {

// The session of run `runId` of `path`, owned by the application; null with `error` set.
// (`user`, the object that reads through it, is not its owner: see above.)
inline rwb::widgets::RunSession *openSession(QObject &user, const QString &path, qint64 runId, QString *error = nullptr)
{
    (void)user;
    std::unique_ptr<rwb::widgets::RunSession> s = rwb::widgets::RunSession::open(path, runId, error);
    if (!s)
        return nullptr;
    s->setParent(QCoreApplication::instance());
    return s.release();
}

// Binds `view` to a new session of run `runId` of `path` (what openRun did before views
// took sessions); false with `error` from the session or the view.
template <class View>
bool showRun(View &view, const QString &path, qint64 runId, QString *error = nullptr)
{
    rwb::widgets::RunSession *s = openSession(view, path, runId, error);
    return s && view.setSession(s, error);
}

template <class View>
bool addOverlay(View &view, const QString &path, qint64 runId, QString *error = nullptr)
{
    rwb::widgets::RunSession *s = openSession(view, path, runId, error);
    return s && view.addOverlay(*s, error);
}

template <class View>
bool showRollout(View &view, const QString &path, qint64 rolloutId, QString *error = nullptr)
{
    QString e;
    // The rollout's run: any session of the file reads it.
    rwb::widgets::RunSession *s = nullptr;
    try {
        const rwb::store::RunStore store(path.toStdString(), rwb::store::RunStore::OpenMode::ReadOnly);
        s = openSession(view, path, store.rollout(rolloutId).runId, &e);
    } catch (const std::exception &x) {
        e = QString::fromUtf8(x.what());
    }
    if (!s) {
        if (error)
            *error = e;
        return false;
    }
    return view.showRollout(*s, rolloutId, error);
}

} // namespace rwbtest
