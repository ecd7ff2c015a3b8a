// app/workbench: the main window, live language switching and the restored layout.
#include "languagemanager.h"
#include "mainwindow.h"
#include "rewarddesigner.h"
#include "samplescoremodel.h"

#include <QDockWidget>
#include <QLabel>
#include <QMenuBar>
#include <QSettings>
#include <QStandardPaths>
#include <QtTest>

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void opensBundledSamplesAndBestPreset();
    void switchesLanguageLive();
    void restoresLayoutAndFiles();
};

void TestMainWindow::initTestCase()
{
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName("RewardWorkbenchTest");
    QCoreApplication::setApplicationName("tst_mainwindow");
    QSettings().clear();
}

void TestMainWindow::opensBundledSamplesAndBestPreset()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    QCOMPARE(w.designer()->model()->rowCount(), 210);
    QCOMPARE(w.designer()->configPath(), QString(":/presets/table2_star_partial20_marker80.json"));
    // A missing file on the command line falls back, without crashing.
    MainWindow w2(&lang);
    QTimer::singleShot(0, [] {
        for (QWidget *top : QApplication::topLevelWidgets())
            if (top->inherits("QMessageBox"))
                QMetaObject::invokeMethod(top, "accept");
    });
}

void TestMainWindow::switchesLanguageLive()
{
    LanguageManager lang;
    lang.setChoice("en");
    MainWindow w(&lang);
    w.show();
    QCOMPARE(w.menuBar()->actions().first()->text(), QString("&File"));
    lang.setChoice("ja");
    QCOMPARE(lang.effectiveLanguage(), QString("ja"));
    QTRY_COMPARE(w.menuBar()->actions().first()->text(), QString::fromUtf8("ファイル(&F)"));
    auto *dock = w.findChild<QDockWidget *>("rewardComponentsDock");
    QVERIFY(dock);
    QCOMPARE(dock->windowTitle(), QString::fromUtf8("報酬コンポーネント"));
    QCOMPARE(w.designer()->model()->headerData(SampleScoreModel::GoldColumn, Qt::Horizontal).toString(),
             QString::fromUtf8("正解"));
    QCOMPARE(QSettings().value("language").toString(), QString("ja"));
    lang.setChoice("en");
    QTRY_COMPARE(w.menuBar()->actions().first()->text(), QString("&File"));
    QCOMPARE(dock->windowTitle(), QString("Reward components"));
}

void TestMainWindow::restoresLayoutAndFiles()
{
    LanguageManager lang;
    lang.setChoice("en");
    {
        MainWindow w(&lang);
        w.openInitialFiles({}, ":/presets/table1_partial50_exist50.json");
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.findChild<QDockWidget *>("sampleDetailDock")->hide();
        w.close();
    }
    MainWindow w(&lang);
    w.openInitialFiles({}, {});
    w.show();
    QVERIFY(QTest::qWaitForWindowExposed(&w));
    QVERIFY(w.findChild<QDockWidget *>("sampleDetailDock")->isHidden());
    QCOMPARE(w.designer()->configPath(), QString(":/presets/table1_partial50_exist50.json"));
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
