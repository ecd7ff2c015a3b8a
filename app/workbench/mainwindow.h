#pragma once

#include <QMainWindow>

class LanguageManager;
class QAction;
class QActionGroup;
class QDockWidget;
class QLabel;
class QMenu;
class RewardDesigner;

// The workbench's main window: dock-based, so later views (training, curves, rollouts)
// slot in beside the Reward Designer. Restores its layout, the open files and the
// language at the next start (QSettings).
class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(LanguageManager *language, QWidget *parent = nullptr);
    ~MainWindow() override;

    RewardDesigner *designer() const { return m_designer; }

    // Opens the samples and the config given on the command line, else those of the
    // last session, else the bundled sample set and the paper's best preset (table 2 *).
    void openInitialFiles(const QString &samples, const QString &config);

protected:
    void closeEvent(QCloseEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    void createActions();
    void retranslate();
    void restoreLayout();
    void saveLayout();
    void openBundledSamples();
    void resetLayout();
    void showAbout();
    void onSamplesLoaded(const QString &path, int count);

    LanguageManager *m_language = nullptr;
    RewardDesigner *m_designer = nullptr;
    QDockWidget *m_componentsDock = nullptr;
    QDockWidget *m_detailDock = nullptr;
    QByteArray m_defaultState;

    QMenu *m_fileMenu = nullptr;
    QMenu *m_viewMenu = nullptr;
    QMenu *m_settingsMenu = nullptr;
    QMenu *m_languageMenu = nullptr;
    QMenu *m_helpMenu = nullptr;
    QAction *m_openSamples = nullptr;
    QAction *m_openBundled = nullptr;
    QAction *m_loadConfig = nullptr;
    QAction *m_saveConfig = nullptr;
    QAction *m_quit = nullptr;
    QAction *m_resetLayout = nullptr;
    QAction *m_about = nullptr;
    QActionGroup *m_languageGroup = nullptr;
    QAction *m_langSystem = nullptr;
    QAction *m_langEnglish = nullptr;
    QAction *m_langJapanese = nullptr;
    QLabel *m_samplesStatus = nullptr;
};
