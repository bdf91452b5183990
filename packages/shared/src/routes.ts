/**
 * The route table of SPEC section 2. `public` routes open without a session; every other route
 * redirects to /login without a token. `feature` names the module that fills the page; a route whose
 * module is not built yet renders the "coming soon" page inside the layout.
 */
export type RouteFeature =
  | "home"
  | "identity"
  | "content"
  | "account"
  | "markets"
  | "spot"
  | "contracts"
  | "launchpad"
  | "loans"
  | "earn"
  | "assets"
  | "funding"
  | "kyc"
  | "c2c"
  | "referral"
  | "rewards"
  | "messages"
  | "help"
  | "other"
  | "options"
  | "proofs";

export interface RouteEntry {
  path: string;
  public: boolean;
  feature: RouteFeature;
  /** i18n key under `nav.` for the page title. */
  title: string;
}

const r = (path: string, feature: RouteFeature, title: string, isPublic = false): RouteEntry => ({
  path,
  public: isPublic,
  feature,
  title,
});

export const ROUTES: readonly RouteEntry[] = [
  // Public
  r("/", "home", "home", true),
  r("/index", "home", "home", true),
  r("/market", "markets", "market", true),
  r("/login", "identity", "login", true),
  r("/register", "identity", "register", true),
  r("/forgetpwd", "identity", "forgetpwd", true),
  r("/text", "content", "text", true),
  r("/downLoad", "content", "download", true),
  r("/help", "help", "help", true),
  r("/helpDetail", "help", "help", true),
  r("/about", "content", "about", true),
  r("/agrt", "content", "agreement", true),
  r("/bannerDetail", "content", "banner", true),
  r("/notice", "content", "notice", true),
  r("/security", "identity", "security", true),
  r("/benefits", "rewards", "benefits", true),
  r("/benefitsDetail", "rewards", "benefits", true),
  r("/signRule", "rewards", "signRule", true),
  r("/userAgreement", "content", "agreement", true),
  r("/proofOfLiabilities", "proofs", "proofs", true),
  r("/settingNew", "account", "settings", true),
  r("/setting-newdetail", "account", "settings", true),
  r("/questionnaire", "kyc", "questionnaire", true),
  r("/verificationCode", "identity", "verificationCode", true),
  // Trading and markets
  r("/preciousMetal", "contracts", "trade"),
  r("/currency", "spot", "spot"),
  r("/currencyRecord", "spot", "spotRecord"),
  r("/currencyTrade", "spot", "spot"),
  r("/exchange", "spot", "exchange"),
  // Subscription and loans
  r("/subscription", "launchpad", "subscription"),
  r("/subscriptionRecord", "launchpad", "subscriptionRecord"),
  r("/subscriptionBuy", "launchpad", "subscription"),
  r("/repayment2", "loans", "repayment"),
  r("/repaymentNew", "loans", "repayment"),
  r("/ldcoin", "loans", "loans"),
  // Earn
  r("/profit_index", "earn", "earn"),
  r("/profit_wdtg", "earn", "earnOrders"),
  r("/profit_buy", "earn", "earn"),
  r("/vip_index", "earn", "vip"),
  r("/vip_wdtg", "earn", "earnOrders"),
  r("/etflow_buy", "earn", "etf"),
  r("/etf_wdtg", "earn", "earnOrders"),
  r("/etflow_wdtg", "earn", "earnOrders"),
  // Assets
  r("/asset", "assets", "assets"),
  r("/table1", "assets", "assets"),
  r("/table2", "assets", "assets"),
  r("/record", "assets", "records"),
  r("/transfer", "funding", "transfer"),
  r("/address", "funding", "addresses"),
  // Verification
  r("/authentication", "kyc", "kyc"),
  r("/authenticationhigh", "kyc", "kycAdvanced"),
  r("/authenticationrj", "funding", "deposit"),
  r("/authenticationcj", "funding", "withdraw"),
  r("/fengxian", "kyc", "risk"),
  r("/xinyongfen", "kyc", "credit"),
  r("/sfyz", "kyc", "kyc"),
  r("/smauth", "kyc", "kycPrimary"),
  r("/seniorauth", "kyc", "kycAdvanced"),
  r("/dzrz", "kyc", "addressProof"),
  r("/credit", "kyc", "credit"),
  // Wallet and cards
  r("/wallet", "funding", "wallet"),
  r("/walletAdd", "funding", "wallet"),
  r("/bank", "funding", "bank"),
  r("/bankAdd", "funding", "bank"),
  r("/kjmbSelect", "funding", "quickBuy"),
  // Records
  r("/addcardRecord", "funding", "withdrawRecord"),
  r("/tbjl", "funding", "withdrawRecord"),
  r("/rechargeRecord", "funding", "depositRecord"),
  r("/cbjl", "funding", "depositRecord"),
  r("/moneyRecord", "assets", "moneyRecord"),
  r("/accountRecord", "assets", "accountRecord"),
  r("/deallog", "spot", "deallog"),
  // Account
  r("/setting", "account", "settings"),
  r("/settingHelp", "help", "help"),
  r("/settingHelpdetail", "help", "help"),
  r("/settingAbout", "content", "about"),
  r("/service", "messages", "service"),
  r("/invite", "referral", "invite"),
  r("/username", "account", "profile"),
  r("/mobile", "identity", "bindPhone"),
  r("/email", "identity", "bindEmail"),
  r("/info", "account", "profile"),
  // Security
  r("/editPassword", "identity", "changePassword"),
  r("/googleCode", "funding", "googleCode"),
  r("/editPasswordTrade", "identity", "tradePassword"),
  r("/bindmpwd", "identity", "tradePassword"),
  r("/securityQuestions", "identity", "securityQuestions"),
  r("/apiKeys", "account", "apiKeys"),
  // C2C
  r("/c2c_index", "c2c", "c2c"),
  r("/c2c_create", "c2c", "c2c"),
  r("/c2c_order", "c2c", "c2c"),
  r("/c2c_submit", "c2c", "c2c"),
  r("/c2c_account", "c2c", "c2c"),
  r("/c2c_rule", "c2c", "c2c"),
  // Other
  r("/bps", "other", "bps"),
  r("/404", "other", "notFound"),
  r("/agreement", "content", "agreement"),
  // Options
  r("/options", "options", "options"),
  r("/optionsRecord", "options", "optionsRecord"),
];

export const PUBLIC_PATHS: ReadonlySet<string> = new Set(ROUTES.filter((x) => x.public).map((x) => x.path));

/** Paths a logged-in user may always reach (SPEC section 2: /login and /404 are let through). */
export const ALWAYS_ALLOWED = new Set(["/login", "/404"]);

export function isPublicPath(path: string): boolean {
  return PUBLIC_PATHS.has(path);
}

/** Content page ids the footer links point to. */
export const CONTENT_PAGE = { companyProfile: 1, userAgreement: 3, privacyTerms: 5 } as const;
