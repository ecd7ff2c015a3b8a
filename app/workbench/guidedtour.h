#pragma once

#include "tourpanel.h"

#include <QList>
#include <QObject>

class QAction;
class QDockWidget;
class QMainWindow;
class QTabWidget;

// The workbench's guided tour: the steps of the TourPanel above the views (where the Reward
// Designer, the training setup, each view, the docks, the search trees, the annotator, the
// jobs and the user guide live), each "Show me" bringing its tab, dock or menu entry to
// the front and outlining it; and Help ▸ Guided tour, which opens it again at any time.
// The tour opens at start with --tour (scripts/demo.sh passes it) unless its "Don't show
// again" was checked. The steps name the docks, tabs and menu entries by their current
// text, so they follow the language. GUI thread only.
class GuidedTour : public QObject {
    Q_OBJECT
public:
    // What the steps show; all owned by the window.
    struct Parts {
        QTabWidget *views;                 // the central tabs, in MainWindow::View order
        QDockWidget *components;           // the Reward Designer's weights
        QDockWidget *training;             // the training setup
        QDockWidget *runs;
        QDockWidget *tokens;
        QAction *start;                    // Training ▸ Start (and the toolbar's button)
        QAction *showTrees;                // View ▸ Search trees
        QAction *annotate;                 // File ▸ Annotate preference pairs
        QAction *firstJob;                 // the first job of the Jobs menu
        QAction *userGuide;                // Help ▸ User guide
    };
    // `panel` is the window's (placed above the views); this fills it with the steps.
    GuidedTour(QMainWindow *window, rwb::widgets::TourPanel *panel, Parts parts);

    rwb::widgets::TourPanel *panel() const { return m_panel; }
    // Help ▸ Guided tour: the panel on its first step, whatever "Don't show again" says.
    QAction *action() const { return m_action; }
    // --tour: the panel on its first step unless "Don't show again" was checked.
    bool showAtStart() { return m_panel->startUnlessDismissed(); }
    // The steps again in the current language (after the window's own texts).
    void retranslate();

private:
    QList<rwb::widgets::TourStep> steps() const;
    void showTab(int view, const QString &highlightName = {}) const;
    void showDock(QDockWidget *dock) const;
    void openMenuAt(QAction *action) const;
    QString menuPath(QAction *action) const;

    QMainWindow *m_window;
    rwb::widgets::TourPanel *m_panel;
    Parts m_parts;
    QAction *m_action;
};
