#pragma once

#include <QObject>
#include <QPointer>
#include <QString>

class QAction;
class QTextBrowser;
class QWidget;

// The Help menu's documents: "User guide" (docs/guide.md) and "CLI reference"
// (docs/cli.md), shown as Markdown in a window of the workbench (a QTextBrowser: its
// links to the other pages and its images work, offline). The docs folder is looked for
// in $RWB_DOCS_DIR, beside the installed program (PREFIX/share/doc/reward-workbench) and
// in the checkout the program was built in (a folder above it holding docs/guide.md, or
// the source folder CMake was given);
// when none has the page, a message names where it looked. GUI thread only.
class HelpActions : public QObject {
    Q_OBJECT
public:
    explicit HelpActions(QWidget *window);

    QList<QAction *> actions() const; // User guide, CLI reference
    void retranslate();

    // The folder holding guide.md ("" when none was found).
    static QString docsDir();
    // The window showing the pages (nullptr until one was opened).
    QTextBrowser *browser() const;
    // Opens `page` (a file name in the docs folder); false with *error naming the places
    // looked in when it is not found.
    bool openPage(const QString &page, QString *error = nullptr);

private:
    void fitImages(); // wide screenshots scaled down to the window's width

    QWidget *m_window;
    QAction *m_guide;
    QAction *m_cli;
    QPointer<QTextBrowser> m_browser;
};
