import { type ComponentType, type LazyExoticComponent, lazy } from "react";
import { loadNamespace, type PageNamespace } from "../i18n/index.ts";

/**
 * Which component renders each built route. Routes of SPEC section 2 that are not listed here
 * render the coming-soon page with their title (see router.tsx). Pages load lazily, so the first
 * screen downloads only what it shows.
 */
type Page = LazyExoticComponent<ComponentType<Record<string, never>>>;
/** A lazy page; `namespaces` are texts only its pages use, fetched with it (see i18n/index.ts). */
const page = <M,>(
  load: () => Promise<M>,
  pick: (m: M) => ComponentType<Record<string, never>>,
  namespaces: PageNamespace[] = [],
): Page =>
  lazy(() => Promise.all([load(), ...namespaces.map(loadNamespace)]).then(([m]) => ({ default: pick(m) })));

const Home = page(
  () => import("../features/home/home-page.tsx"),
  (m) => m.HomePage,
);
const Login = page(
  () => import("../features/identity/login-page.tsx"),
  (m) => m.LoginPage,
  ["wallet"],
);
const Register = page(
  () => import("../features/identity/register-page.tsx"),
  (m) => m.RegisterPage,
);
const ForgotPassword = page(
  () => import("../features/identity/forgot-password-page.tsx"),
  (m) => m.ForgotPasswordPage,
  ["wallet"],
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
const ApiKeys = page(
  () => import("../features/account/api-keys-page.tsx"),
  (m) => m.ApiKeysPage,
);
const SecurityQuestions = page(
  () => import("../features/account/security-questions-page.tsx"),
  (m) => m.SecurityQuestionsPage,
);
const Profile = page(
  () => import("../features/account/profile-page.tsx"),
  (m) => m.ProfilePage,
  ["referral"],
);
const Settings = page(
  () => import("../features/account/settings-page.tsx"),
  (m) => m.SettingsPage,
);
const Wallets = page(
  () => import("../features/wallets/wallets-page.tsx"),
  (m) => m.WalletsPage,
  ["wallet"],
);
const Download = page(
  () => import("../features/wallets/download-page.tsx"),
  (m) => m.DownloadPage,
  ["wallet"],
);
const Content = page(
  () => import("../features/content/content-page.tsx"),
  (m) => m.ContentPage,
);
const Notices = page(
  () => import("../features/content/notice-list-page.tsx"),
  (m) => m.NoticeListPage,
  ["messages"],
);
const helpPages = () => import("../features/content/help-pages.ts");
const HelpCentre = page(helpPages, (m) => m.HelpCentrePage, ["help"]);
const HelpArticle = page(helpPages, (m) => m.HelpArticlePage, ["help"]);
const BannerDetail = page(helpPages, (m) => m.BannerDetailPage, ["help"]);

const Service = page(
  () => import("../features/messages/service-page.tsx"),
  (m) => m.ServicePage,
  ["messages"],
);

const Assets = page(
  () => import("../features/assets/assets-page.tsx"),
  (m) => m.AssetsPage,
);
const MoneyRecords = page(
  () => import("../features/assets/money-records-page.tsx"),
  (m) => m.MoneyRecordsPage,
);
const Transfer = page(
  () => import("../features/assets/transfer-page.tsx"),
  (m) => m.TransferPage,
);
const Deposit = page(
  () => import("../features/funding/deposit-page.tsx"),
  (m) => m.DepositPage,
);
const DepositRecords = page(
  () => import("../features/funding/deposit-records-page.tsx"),
  (m) => m.DepositRecordsPage,
);
const Withdraw = page(
  () => import("../features/funding/withdraw-page.tsx"),
  (m) => m.WithdrawPage,
);
const WithdrawalRecords = page(
  () => import("../features/funding/withdrawal-records-page.tsx"),
  (m) => m.WithdrawalRecordsPage,
);
const AddressList = page(
  () => import("../features/funding/address-list-page.tsx"),
  (m) => m.AddressListPage,
);
const AddressAdd = page(
  () => import("../features/funding/address-add-page.tsx"),
  (m) => m.AddressAddPage,
);
const BankCards = page(
  () => import("../features/funding/bank-card-list-page.tsx"),
  (m) => m.BankCardListPage,
);
const BankCardAdd = page(
  () => import("../features/funding/bank-card-add-page.tsx"),
  (m) => m.BankCardAddPage,
);
const GoogleCode = page(
  () => import("../features/funding/google-code-page.tsx"),
  (m) => m.GoogleCodePage,
);
const Market = page(
  () => import("../features/markets/market-page.tsx"),
  (m) => m.MarketPage,
);
const SpotTrade = page(
  () => import("../features/spot/spot-trade-page.tsx"),
  (m) => m.SpotTradePage,
);
const SpotRecord = page(
  () => import("../features/spot/spot-record-page.tsx"),
  (m) => m.SpotRecordPage,
);
const DealLog = page(
  () => import("../features/spot/spot-record-page.tsx"),
  (m) => m.DealLogPage,
);
const EarnProducts = page(
  () => import("../features/earn/earn-products-page.tsx"),
  (m) => m.EarnProductsPage,
  ["earn"],
);
const EarnOrders = page(
  () => import("../features/earn/earn-orders-page.tsx"),
  (m) => m.EarnOrdersPage,
  ["earn"],
);
const Launchpad = page(
  () => import("../features/launchpad/launchpad-page.tsx"),
  (m) => m.LaunchpadPage,
  ["launchpad"],
);
const Proofs = page(
  () => import("../features/proofs/proofs-page.tsx"),
  (m) => m.ProofsPage,
  ["proofs"],
);
const SubscriptionRecords = page(
  () => import("../features/launchpad/subscription-records-page.tsx"),
  (m) => m.SubscriptionRecordsPage,
  ["launchpad"],
);

const C2cIndex = page(
  () => import("../features/c2c/c2c-index-page.tsx"),
  (m) => m.C2cIndexPage,
  ["c2c", "kyc"],
);
const C2cOrders = page(
  () => import("../features/c2c/c2c-orders-page.tsx"),
  (m) => m.C2cOrdersPage,
  ["c2c"],
);
const C2cSubmit = page(
  () => import("../features/c2c/submit-proof-page.tsx"),
  (m) => m.SubmitProofPage,
  ["c2c"],
);
const C2cAccount = page(
  () => import("../features/c2c/payment-account-page.tsx"),
  (m) => m.PaymentAccountPage,
  ["c2c"],
);
const C2cRules = page(
  () => import("../features/c2c/rules-page.tsx"),
  (m) => m.RulesPage,
  ["c2c"],
);
const C2cQuickBuy = page(
  () => import("../features/c2c/quick-buy-page.tsx"),
  (m) => m.QuickBuyPage,
  ["c2c", "kyc"],
);

const Verification = page(
  () => import("../features/kyc/verification-page.tsx"),
  (m) => m.VerificationPage,
  ["kyc"],
);
const PrimaryKyc = page(
  () => import("../features/kyc/primary-kyc-page.tsx"),
  (m) => m.PrimaryKycPage,
  ["kyc"],
);
const AdvancedKyc = page(
  () => import("../features/kyc/advanced-kyc-page.tsx"),
  (m) => m.AdvancedKycPage,
  ["kyc"],
);
const AddressProof = page(
  () => import("../features/kyc/address-proof-page.tsx"),
  (m) => m.AddressProofPage,
  ["kyc"],
);
const Questionnaire = page(
  () => import("../features/kyc/questionnaire-page.tsx"),
  (m) => m.QuestionnairePage,
  ["kyc"],
);
const Credit = page(
  () => import("../features/kyc/credit-page.tsx"),
  (m) => m.CreditPage,
  ["kyc"],
);
const kycAlias = (
  pick: (m: typeof import("../features/kyc/kyc-redirects.tsx")) => ComponentType<Record<string, never>>,
) => page(() => import("../features/kyc/kyc-redirects.tsx"), pick, ["kyc"]);
const OptionsTrade = page(
  () => import("../features/options/options-trade-page.tsx"),
  (m) => m.OptionsTradePage,
  ["options"],
);
const ContractsTrade = page(
  () => import("../features/contracts/contracts-trade-page.tsx"),
  (m) => m.ContractsTradePage,
  ["contracts"],
);
const OptionsRecord = page(
  () => import("../features/options/options-record-page.tsx"),
  (m) => m.OptionsRecordPage,
  ["options"],
);
const LoanApply = page(
  () => import("../features/loans/loan-apply-page.tsx"),
  (m) => m.LoanApplyPage,
  ["loans", "kyc"],
);
const MyLoans = page(
  () => import("../features/loans/my-loans-page.tsx"),
  (m) => m.MyLoansPage,
  ["loans"],
);
const LoanRepay = page(
  () => import("../features/loans/loan-repay-page.tsx"),
  (m) => m.LoanRepayPage,
  ["loans"],
);
const Invite = page(
  () => import("../features/referral/invite-page.tsx"),
  (m) => m.InvitePage,
  ["referral"],
);
const Benefits = page(
  () => import("../features/rewards/benefits-page.tsx"),
  (m) => m.BenefitsPage,
  ["rewards"],
);
const BenefitsDetail = page(
  () => import("../features/rewards/benefits-detail-page.tsx"),
  (m) => m.BenefitsDetailPage,
  ["rewards"],
);
const SignRule = page(
  () => import("../features/rewards/sign-rule-page.tsx"),
  (m) => m.SignRulePage,
  ["rewards"],
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
  "/apiKeys": ApiKeys,
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
  "/help": HelpCentre,
  "/settingHelp": HelpCentre,
  "/helpDetail": HelpArticle,
  "/settingHelpdetail": HelpArticle,
  "/bannerDetail": BannerDetail,
  "/downLoad": Download,
  "/service": Service,
  "/table1": Assets,
  "/table2": Assets,
  "/record": MoneyRecords,
  "/moneyRecord": MoneyRecords,
  "/accountRecord": MoneyRecords,
  "/transfer": Transfer,
  "/authenticationrj": Deposit,
  "/rechargeRecord": DepositRecords,
  "/cbjl": DepositRecords,
  "/authenticationcj": Withdraw,
  "/tbjl": WithdrawalRecords,
  "/addcardRecord": WithdrawalRecords,
  "/address": AddressList,
  "/wallet": Wallets,
  "/walletAdd": AddressAdd,
  "/bank": BankCards,
  "/bankAdd": BankCardAdd,
  "/googleCode": GoogleCode,
  "/market": Market,
  "/currency": SpotTrade,
  "/currencyTrade": SpotTrade,
  "/exchange": SpotTrade,
  "/currencyRecord": SpotRecord,
  "/deallog": DealLog,
  "/authentication": Verification,
  "/sfyz": kycAlias((m) => m.ToVerification),
  "/smauth": PrimaryKyc,
  "/seniorauth": AdvancedKyc,
  "/authenticationhigh": kycAlias((m) => m.ToAdvanced),
  "/dzrz": AddressProof,
  "/questionnaire": Questionnaire,
  "/fengxian": kycAlias((m) => m.ToQuestionnaire),
  "/credit": Credit,
  "/xinyongfen": kycAlias((m) => m.ToCredit),
  "/profit_index": EarnProducts,
  "/profit_buy": EarnProducts,
  "/vip_index": EarnProducts,
  "/etflow_buy": EarnProducts,
  "/profit_wdtg": EarnOrders,
  "/vip_wdtg": EarnOrders,
  "/etf_wdtg": EarnOrders,
  "/etflow_wdtg": EarnOrders,
  "/subscription": Launchpad,
  "/subscriptionBuy": Launchpad,
  "/subscriptionRecord": SubscriptionRecords,
  "/proofOfLiabilities": Proofs,
  "/invite": Invite,
  "/benefits": Benefits,
  "/benefitsDetail": BenefitsDetail,
  "/signRule": SignRule,
  "/options": OptionsTrade,
  "/optionsRecord": OptionsRecord,
  "/ldcoin": LoanApply,
  "/repayment2": MyLoans,
  "/repaymentNew": LoanRepay,
  "/c2c_index": C2cIndex,
  "/c2c_create": C2cIndex,
  "/c2c_order": C2cOrders,
  "/c2c_submit": C2cSubmit,
  "/c2c_account": C2cAccount,
  "/c2c_rule": C2cRules,
  "/kjmbSelect": C2cQuickBuy,
  "/preciousMetal": ContractsTrade,
};
