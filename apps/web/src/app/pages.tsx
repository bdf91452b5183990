import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/**
 * Which component renders each built route. Routes of SPEC section 2 that are not listed here
 * render the coming-soon page with their title (see router.tsx). Pages load lazily, so the first
 * screen downloads only what it shows.
 */
type Page = LazyExoticComponent<ComponentType<Record<string, never>>>;
const page = <M,>(load: () => Promise<M>, pick: (m: M) => ComponentType<Record<string, never>>): Page =>
  lazy(() => load().then((m) => ({ default: pick(m) })));

const Home = page(
  () => import("../features/home/home-page.tsx"),
  (m) => m.HomePage,
);
const Login = page(
  () => import("../features/identity/login-page.tsx"),
  (m) => m.LoginPage,
);
const Register = page(
  () => import("../features/identity/register-page.tsx"),
  (m) => m.RegisterPage,
);
const ForgotPassword = page(
  () => import("../features/identity/forgot-password-page.tsx"),
  (m) => m.ForgotPasswordPage,
);
const ChangePassword = page(
  () => import("../features/identity/change-password-page.tsx"),
  (m) => m.ChangePasswordPage,
);
const SecurityCenter = page(
  () => import("../features/account/security-center-page.tsx"),
  (m) => m.SecurityCenterPage,
);
const BindPhone = page(
  () => import("../features/account/bind-phone-page.tsx"),
  (m) => m.BindPhonePage,
);
const BindEmail = page(
  () => import("../features/account/bind-email-page.tsx"),
  (m) => m.BindEmailPage,
);
const TradePassword = page(
  () => import("../features/account/trade-password-page.tsx"),
  (m) => m.TradePasswordPage,
);
const SecurityQuestions = page(
  () => import("../features/account/security-questions-page.tsx"),
  (m) => m.SecurityQuestionsPage,
);
const Profile = page(
  () => import("../features/account/profile-page.tsx"),
  (m) => m.ProfilePage,
);
const Settings = page(
  () => import("../features/account/settings-page.tsx"),
  (m) => m.SettingsPage,
);
const Content = page(
  () => import("../features/content/content-page.tsx"),
  (m) => m.ContentPage,
);
const Notices = page(
  () => import("../features/content/notice-list-page.tsx"),
  (m) => m.NoticeListPage,
);

export const PAGES: Record<string, Page> = {
  "/": Home,
  "/index": Home,
  "/login": Login,
  "/register": Register,
  "/forgetpwd": ForgotPassword,
  "/verificationCode": ForgotPassword,
  "/editPassword": ChangePassword,
  "/security": SecurityCenter,
  "/mobile": BindPhone,
  "/email": BindEmail,
  "/bindmpwd": TradePassword,
  "/editPasswordTrade": TradePassword,
  "/securityQuestions": SecurityQuestions,
  "/info": Profile,
  "/username": Profile,
  "/setting": Settings,
  "/settingNew": Settings,
  "/setting-newdetail": Settings,
  "/about": Content,
  "/settingAbout": Content,
  "/agrt": Content,
  "/userAgreement": Content,
  "/agreement": Content,
  "/text": Content,
  "/notice": Notices,
};
