import type { Language } from "@northstar/shared/languages";

interface SeedHelpArticle {
  title: string;
  summary: string;
  body: string;
}

/** The help centre of a fresh site: two categories, each with a first article, in every language. */
export const SEED_HELP: { names: Record<Language, string>; articles: Record<Language, SeedHelpArticle>[] }[] =
  [
    {
      names: {
        en: "Account and security",
        zh: "账户与安全",
        ft: "帳戶與安全",
        jp: "アカウントとセキュリティ",
        hy: "계정 및 보안",
        ty: "บัญชีและความปลอดภัย",
        xby: "Cuenta y seguridad",
        yn: "Tài khoản và bảo mật",
      },
      articles: [
        {
          en: {
            title: "How do I verify my identity?",
            summary: "Primary and advanced verification, step by step.",
            body: "<p>Open <b>Security centre</b>, choose <b>Verification</b> and fill in your name and document. Upload the front, the back and a photo holding the document.</p><p>We review it within one working day; advanced verification follows the same steps.</p>",
          },
          zh: {
            title: "如何完成身份认证？",
            summary: "初级与高级认证的步骤。",
            body: "<p>打开<b>安全中心</b>，选择<b>身份认证</b>，填写姓名和证件信息，上传证件正面、背面和手持证件照片。</p><p>我们会在一个工作日内审核；高级认证步骤相同。</p>",
          },
          ft: {
            title: "如何完成身份認證？",
            summary: "初級與高級認證的步驟。",
            body: "<p>打開<b>安全中心</b>，選擇<b>身份認證</b>，填寫姓名和證件資訊，上傳證件正面、背面和手持證件照片。</p><p>我們會在一個工作日內審核；高級認證步驟相同。</p>",
          },
          jp: {
            title: "本人確認の方法は？",
            summary: "初級・上級認証の手順です。",
            body: "<p><b>セキュリティセンター</b>を開き、<b>本人確認</b>を選んで氏名と書類の情報を入力し、書類の表・裏・手持ち写真をアップロードします。</p><p>1営業日以内に審査します。上級認証も同じ手順です。</p>",
          },
          hy: {
            title: "본인 인증은 어떻게 하나요?",
            summary: "기본 및 고급 인증 절차입니다.",
            body: "<p><b>보안 센터</b>에서 <b>본인 인증</b>을 선택하고 이름과 신분증 정보를 입력한 뒤 앞면, 뒷면, 신분증을 든 사진을 올리세요.</p><p>영업일 기준 1일 이내에 심사하며, 고급 인증도 같은 절차입니다.</p>",
          },
          ty: {
            title: "ยืนยันตัวตนอย่างไร?",
            summary: "ขั้นตอนการยืนยันขั้นต้นและขั้นสูง",
            body: "<p>เปิด<b>ศูนย์ความปลอดภัย</b> เลือก<b>ยืนยันตัวตน</b> กรอกชื่อและข้อมูลเอกสาร แล้วอัปโหลดด้านหน้า ด้านหลัง และรูปถือเอกสาร</p><p>เราตรวจสอบภายในหนึ่งวันทำการ การยืนยันขั้นสูงมีขั้นตอนเดียวกัน</p>",
          },
          xby: {
            title: "¿Cómo verifico mi identidad?",
            summary: "La verificación básica y la avanzada, paso a paso.",
            body: "<p>Abra el <b>Centro de seguridad</b>, elija <b>Verificación</b> e introduzca su nombre y documento. Suba el anverso, el reverso y una foto sosteniendo el documento.</p><p>La revisamos en un día hábil; la verificación avanzada sigue los mismos pasos.</p>",
          },
          yn: {
            title: "Làm thế nào để xác minh danh tính?",
            summary: "Các bước xác minh cơ bản và nâng cao.",
            body: "<p>Mở <b>Trung tâm bảo mật</b>, chọn <b>Xác minh</b>, nhập họ tên và giấy tờ, rồi tải lên mặt trước, mặt sau và ảnh cầm giấy tờ.</p><p>Chúng tôi xét duyệt trong một ngày làm việc; xác minh nâng cao có các bước tương tự.</p>",
          },
        },
      ],
    },
    {
      names: {
        en: "Deposits and withdrawals",
        zh: "充值与提现",
        ft: "充值與提現",
        jp: "入金と出金",
        hy: "입금 및 출금",
        ty: "การฝากและถอน",
        xby: "Depósitos y retiros",
        yn: "Nạp và rút tiền",
      },
      articles: [
        {
          en: {
            title: "How long does a withdrawal take?",
            summary: "Review times and what the fee covers.",
            body: "<p>Withdrawals are reviewed by our team, usually within a few hours. The fee shown on the form is the network fee; the amount you receive is shown before you confirm.</p>",
          },
          zh: {
            title: "提现需要多长时间？",
            summary: "审核时间与手续费说明。",
            body: "<p>提现由我们的团队审核，通常在几小时内完成。表单中显示的手续费为网络费用；确认前会显示您实际到账的金额。</p>",
          },
          ft: {
            title: "提現需要多長時間？",
            summary: "審核時間與手續費說明。",
            body: "<p>提現由我們的團隊審核，通常在幾小時內完成。表單中顯示的手續費為網路費用；確認前會顯示您實際到帳的金額。</p>",
          },
          jp: {
            title: "出金にはどのくらいかかりますか？",
            summary: "審査時間と手数料について。",
            body: "<p>出金は担当者が審査し、通常は数時間以内に完了します。フォームの手数料はネットワーク手数料で、受取額は確定前に表示されます。</p>",
          },
          hy: {
            title: "출금은 얼마나 걸리나요?",
            summary: "심사 시간과 수수료 안내입니다.",
            body: "<p>출금은 담당 팀이 심사하며 보통 몇 시간 안에 처리됩니다. 양식의 수수료는 네트워크 수수료이며, 받는 금액은 확인 전에 표시됩니다.</p>",
          },
          ty: {
            title: "การถอนใช้เวลานานเท่าใด?",
            summary: "ระยะเวลาตรวจสอบและค่าธรรมเนียม",
            body: "<p>ทีมงานจะตรวจสอบการถอน โดยปกติภายในไม่กี่ชั่วโมง ค่าธรรมเนียมในแบบฟอร์มคือค่าธรรมเนียมเครือข่าย และจะแสดงจำนวนที่คุณได้รับก่อนยืนยัน</p>",
          },
          xby: {
            title: "¿Cuánto tarda un retiro?",
            summary: "Tiempos de revisión y qué cubre la comisión.",
            body: "<p>Nuestro equipo revisa los retiros, normalmente en pocas horas. La comisión del formulario es la de la red; el importe que recibirá se muestra antes de confirmar.</p>",
          },
          yn: {
            title: "Rút tiền mất bao lâu?",
            summary: "Thời gian xét duyệt và phí.",
            body: "<p>Đội ngũ của chúng tôi xét duyệt lệnh rút, thường trong vài giờ. Phí trên biểu mẫu là phí mạng; số tiền bạn nhận được hiển thị trước khi xác nhận.</p>",
          },
        },
      ],
    },
  ];
