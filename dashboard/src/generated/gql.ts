/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query Me {\n    me {\n      kind\n      role\n      enrolmentOnly\n      permissions\n      merchantId\n      merchantName\n      user {\n        id\n        email\n        name\n        emailVerified\n        twoFactorEnabled\n      }\n      memberships {\n        merchantId\n        merchantName\n        role\n      }\n    }\n  }\n": typeof types.MeDocument,
    "\n  query Environment {\n    environment\n  }\n": typeof types.EnvironmentDocument,
    "\n  fragment FundingFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    fee\n    expiresAt\n    bankInfo {\n      accountName\n      accountNumber\n      bankName\n      localCode\n    }\n  }\n": typeof types.FundingFieldsFragmentDoc,
    "\n  mutation FundBalance($input: FundBalanceInput!) {\n    fundBalance(input: $input) {\n      ...FundingFields\n    }\n  }\n": typeof types.FundBalanceDocument,
    "\n  mutation SimulateFundingArrival($r: String!) {\n    simulateTransaction(reference: $r, outcome: SUCCESSFUL) {\n      ...FundingFields\n    }\n  }\n": typeof types.SimulateFundingArrivalDocument,
    "\n  subscription FundingDecided($r: String) {\n    transactionStatusChanged(reference: $r, statuses: [SUCCESSFUL, FAILED, EXPIRED]) {\n      ...FundingFields\n    }\n  }\n": typeof types.FundingDecidedDocument,
    "\n  query FundingCurrencies {\n    countries {\n      currency\n    }\n  }\n": typeof types.FundingCurrenciesDocument,
    "\n  query ApiKeys {\n    apiKeys {\n      id\n      label\n      role\n      clientId\n      createdAt\n      createdBy\n      lastUsedAt\n      revokedAt\n    }\n  }\n": typeof types.ApiKeysDocument,
    "\n  mutation CreateApiKey($label: String!, $role: KeyRole) {\n    createApiKey(label: $label, role: $role) {\n      apiKey {\n        id\n        clientId\n      }\n      clientSecret\n    }\n  }\n": typeof types.CreateApiKeyDocument,
    "\n  mutation RotateApiKey($id: ID!) {\n    rotateApiKey(id: $id) {\n      apiKey {\n        id\n        clientId\n      }\n      clientSecret\n    }\n  }\n": typeof types.RotateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": typeof types.RevokeApiKeyDocument,
    "\n  fragment AuditLogEntryFields on AuditLogEntry {\n    id\n    createdAt\n    action\n    actorType\n    actorId\n    actorLabel\n    role\n    targetType\n    targetId\n    ip\n    userAgent\n    before\n    after\n  }\n": typeof types.AuditLogEntryFieldsFragmentDoc,
    "\n  query AuditLog($filter: AuditLogFilter, $first: Int, $after: String) {\n    auditLog(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...AuditLogEntryFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.AuditLogDocument,
    "\n  query AuditLogPeople {\n    teamMembers {\n      userId\n      email\n    }\n  }\n": typeof types.AuditLogPeopleDocument,
    "\n  query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {\n    balanceTransactions(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...BalanceTransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.BalanceTransactionsDocument,
    "\n  fragment CustomerRow on Customer {\n    customerUuid\n    customerId\n    firstName\n    lastName\n    countryCode\n    kycStatus\n    overallKycStatus\n    createdAt\n  }\n": typeof types.CustomerRowFragmentDoc,
    "\n  query Customers($after: String) {\n    customers(first: 20, after: $after) {\n      edges {\n        node {\n          ...CustomerRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.CustomersDocument,
    "\n  query Customer($u: String!) {\n    customer(uuid: $u) {\n      ...CustomerRow\n      email\n      phoneNumber\n      dialCode\n      dateOfBirth\n    }\n    kyc(customerUuid: $u) {\n      kycStatus\n      overallKycStatus\n      submittedAt\n      reviewedAt\n      rejectionReason\n    }\n  }\n": typeof types.CustomerDocument,
    "\n  query DisputeDetail($id: ID!) {\n    dispute(id: $id) {\n      ...DisputeFields\n      funds\n      evidence {\n        productDescription\n        customerCommunication\n        refundPolicy\n        serviceDate\n        serviceDetails\n        uncategorizedText\n        files {\n          id\n          filename\n          contentType\n          size\n        }\n      }\n    }\n  }\n": typeof types.DisputeDetailDocument,
    "\n  query DisputedPayment($r: String!) {\n    transaction(reference: $r) {\n      reference\n      externalReference\n      status\n      amount\n      currency\n      card {\n        brand\n        last4\n      }\n      createdAt\n    }\n  }\n": typeof types.DisputedPaymentDocument,
    "\n  mutation UpdateDisputeEvidence($id: ID!, $input: DisputeEvidenceInput!) {\n    updateDisputeEvidence(id: $id, input: $input) {\n      id\n    }\n  }\n": typeof types.UpdateDisputeEvidenceDocument,
    "\n  mutation SubmitDispute($id: ID!) {\n    submitDispute(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.SubmitDisputeDocument,
    "\n  mutation AcceptDispute($id: ID!) {\n    acceptDispute(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.AcceptDisputeDocument,
    "\n  query Disputes($status: DisputeStatus, $first: Int, $after: String) {\n    disputes(status: $status, first: $first, after: $after) {\n      edges {\n        node {\n          ...DisputeFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.DisputesDocument,
    "\n  query OpenDisputeCount {\n    openDisputeCount\n  }\n": typeof types.OpenDisputeCountDocument,
    "\n  query Invitations {\n    invitations {\n      id\n      email\n      role\n      status\n      createdAt\n      expiresAt\n    }\n  }\n": typeof types.InvitationsDocument,
    "\n  mutation InviteMember($email: String!, $role: Role!) {\n    inviteMember(email: $email, role: $role) {\n      id\n      email\n    }\n  }\n": typeof types.InviteMemberDocument,
    "\n  mutation ResendInvitation($id: ID!) {\n    resendInvitation(id: $id) {\n      id\n      expiresAt\n    }\n  }\n": typeof types.ResendInvitationDocument,
    "\n  mutation RevokeInvitation($id: ID!) {\n    revokeInvitation(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.RevokeInvitationDocument,
    "\n  query UpcomingPayout($currency: String!) {\n    upcomingPayout(currency: $currency) {\n      currency\n      scheduledAt\n      expectedAmount\n      minimumAmount\n      destination\n    }\n  }\n": typeof types.UpcomingPayoutDocument,
    "\n  query Activity($days: Int) {\n    activity(days: $days) {\n      days {\n        day\n        currency\n        collected\n        paidOut\n      }\n      finalCount\n      successfulCount\n      successRate\n    }\n  }\n": typeof types.ActivityDocument,
    "\n  query PaymentLinks {\n    paymentLinks(first: 100) {\n      edges {\n        node {\n          id\n          name\n          slug\n          url\n          qrSvg\n          active\n          amount\n          minAmount\n          maxAmount\n          currency\n          paymentsCount\n          maxPayments\n          expiresAt\n          createdAt\n        }\n      }\n    }\n  }\n": typeof types.PaymentLinksDocument,
    "\n  mutation CreatePaymentLink($input: CreatePaymentLinkInput!) {\n    createPaymentLink(input: $input) {\n      id\n      url\n    }\n  }\n": typeof types.CreatePaymentLinkDocument,
    "\n  mutation DeactivatePaymentLink($id: ID!) {\n    deactivatePaymentLink(id: $id) {\n      id\n      active\n    }\n  }\n": typeof types.DeactivatePaymentLinkDocument,
    "\n  query PaymentLinkPayments($link: String!) {\n    transactions(first: 50, filter: { paymentLinkId: $link }) {\n      edges {\n        node {\n          reference\n          externalReference\n          status\n          amount\n          currency\n          createdAt\n        }\n      }\n    }\n  }\n": typeof types.PaymentLinkPaymentsDocument,
    "\n  query PayoutDestinations {\n    payoutDestinations {\n      id\n      currency\n      accountType\n      countryCode\n      institution\n      masked\n      accountName\n      status\n      effectiveAt\n      createdAt\n      createdBy {\n        id\n        email\n      }\n      approvedBy {\n        email\n      }\n    }\n  }\n": typeof types.PayoutDestinationsDocument,
    "\n  mutation AddPayoutDestination($input: AddPayoutDestinationInput!) {\n    addPayoutDestination(input: $input) {\n      id\n      masked\n      accountName\n      status\n      effectiveAt\n    }\n  }\n": typeof types.AddPayoutDestinationDocument,
    "\n  mutation ApprovePayoutDestination($id: ID!) {\n    approvePayoutDestination(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.ApprovePayoutDestinationDocument,
    "\n  mutation CancelPayoutDestination($id: ID!) {\n    cancelPayoutDestination(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.CancelPayoutDestinationDocument,
    "\n  query Payout($id: ID!) {\n    payout(id: $id) {\n      ...PayoutFields\n      report {\n        currency\n        grossCollected\n        fees\n        refunds\n        transfers\n        adjustments\n        payouts\n        carriedIn\n        carriedOut\n        net\n        balanceTransactions\n      }\n      balanceTransactions {\n        ...BalanceTransactionFields\n      }\n    }\n  }\n": typeof types.PayoutDocument,
    "\n  query PayoutSchedule($currency: String!) {\n    payoutSchedule(currency: $currency) {\n      ...PayoutScheduleFields\n    }\n  }\n  fragment PayoutScheduleFields on PayoutSchedule {\n    currency\n    interval\n    weeklyAnchor\n    monthlyAnchor\n    delayDays\n    cutoffTime\n    timeZone\n    minimumAmount\n    nextPayoutAt\n    isDefault\n  }\n": typeof types.PayoutScheduleDocument,
    "\n  mutation UpdatePayoutSchedule($input: PayoutScheduleInput!) {\n    updatePayoutSchedule(input: $input) {\n      ...PayoutScheduleFields\n    }\n  }\n": typeof types.UpdatePayoutScheduleDocument,
    "\n  fragment PayoutFields on Payout {\n    id\n    createdAt\n    amount\n    fee\n    currency\n    status\n    automatic\n    window\n    expectedArrivalAt\n    completedAt\n    failureReason\n    traceReference\n    transactionReference\n    destination {\n      accountName\n      accountNumberMasked\n      networkName\n      accountType\n      countryCode\n    }\n  }\n": typeof types.PayoutFieldsFragmentDoc,
    "\n  query Payouts($currency: String, $first: Int, $after: String) {\n    payouts(currency: $currency, first: $first, after: $after) {\n      edges {\n        node {\n          ...PayoutFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.PayoutsDocument,
    "\n  mutation CreatePayout($input: CreatePayoutInput!) {\n    createPayout(input: $input) {\n      ...PayoutFields\n    }\n  }\n": typeof types.CreatePayoutDocument,
    "\n  query MySessions {\n    mySessions {\n      id\n      userAgent\n      ip\n      createdAt\n      lastSeenAt\n      current\n    }\n  }\n": typeof types.MySessionsDocument,
    "\n  mutation EndSession($id: ID!) {\n    endSession(id: $id)\n  }\n": typeof types.EndSessionDocument,
    "\n  mutation EndOtherSessions {\n    endOtherSessions\n  }\n": typeof types.EndOtherSessionsDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n": typeof types.ChangePasswordDocument,
    "\n  mutation EnrollCustomer($input: EnrollCustomerInput!) {\n    enrollCustomer(input: $input) {\n      customerUuid\n      firstName\n      lastName\n    }\n  }\n": typeof types.EnrollCustomerDocument,
    "\n  mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {\n    submitKyc(customerUuid: $u, input: $input) {\n      kycStatus\n    }\n  }\n": typeof types.SubmitKycDocument,
    "\n  fragment PaymentFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n  }\n": typeof types.PaymentFieldsFragmentDoc,
    "\n  subscription PaymentChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...PaymentFields\n    }\n  }\n": typeof types.PaymentChangedDocument,
    "\n  mutation InitiatePayment($input: InitiatePaymentInput!) {\n    initiatePayment(input: $input) {\n      ...PaymentFields\n      nextAction {\n        url\n      }\n    }\n  }\n": typeof types.InitiatePaymentDocument,
    "\n  fragment SandboxTransactionFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n  }\n": typeof types.SandboxTransactionFieldsFragmentDoc,
    "\n  mutation SandboxCollect($input: InitiateCollectionInput!) {\n    initiateCollection(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": typeof types.SandboxCollectDocument,
    "\n  mutation SandboxTransfer($input: InitiateTransferInput!) {\n    initiateTransfer(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": typeof types.SandboxTransferDocument,
    "\n  subscription SandboxKycChanged {\n    kycStatusChanged {\n      customerUuid\n      kycStatus\n    }\n  }\n": typeof types.SandboxKycChangedDocument,
    "\n  mutation TopUpBalance($currency: String!, $amount: Decimal!) {\n    topUpBalance(currency: $currency, amount: $amount) {\n      ...BalanceFields\n    }\n  }\n": typeof types.TopUpBalanceDocument,
    "\n  query SandboxCountries {\n    countries {\n      countryCode\n      name\n      currency\n      dialCode\n      exampleMobileNumber\n    }\n  }\n": typeof types.SandboxCountriesDocument,
    "\n  query SandboxChannels($country: String!, $ramp: RampType!) {\n    channels(countryCode: $country, rampType: $ramp) {\n      channelId\n      channelType\n      currency\n      minAmount\n      status\n    }\n  }\n": typeof types.SandboxChannelsDocument,
    "\n  query SandboxNetworks($country: String!, $type: ChannelType!) {\n    networks(countryCode: $country, channel: $type) {\n      networkId\n      name\n    }\n  }\n": typeof types.SandboxNetworksDocument,
    "\n  query SandboxCustomers {\n    customers(first: 100) {\n      edges {\n        node {\n          customerUuid\n          firstName\n          lastName\n          kycStatus\n        }\n      }\n    }\n  }\n": typeof types.SandboxCustomersDocument,
    "\n  query TeamMembers {\n    teamMembers {\n      id\n      userId\n      email\n      name\n      role\n      twoFactorEnabled\n      lastSignInAt\n      createdAt\n    }\n  }\n": typeof types.TeamMembersDocument,
    "\n  query TeamSettings {\n    teamSettings {\n      twoFactorRequired\n    }\n  }\n": typeof types.TeamSettingsDocument,
    "\n  mutation ChangeMemberRole($id: ID!, $role: Role!) {\n    changeMemberRole(id: $id, role: $role) {\n      id\n      role\n    }\n  }\n": typeof types.ChangeMemberRoleDocument,
    "\n  mutation RemoveMember($id: ID!) {\n    removeMember(id: $id)\n  }\n": typeof types.RemoveMemberDocument,
    "\n  mutation TransferOwnership($id: ID!) {\n    transferOwnership(id: $id) {\n      id\n      role\n    }\n  }\n": typeof types.TransferOwnershipDocument,
    "\n  mutation SetTwoFactorRequired($required: Boolean!) {\n    setTwoFactorRequired(required: $required)\n  }\n": typeof types.SetTwoFactorRequiredDocument,
    "\n  query TransactionDetail($r: String!) {\n    transaction(reference: $r) {\n      ...TransactionFields\n      rate\n      fee\n      accountNumber\n      countryCode\n      networkId\n      expiresAt\n      amountRefunded\n      paymentReference\n      bankInfo {\n        accountName\n        accountNumber\n        bankName\n        bankCode\n      }\n      card {\n        brand\n        last4\n      }\n      paymentMethod\n      checkoutSessionId\n      history {\n        fromStatus\n        toStatus\n        reason\n        occurredAt\n      }\n    }\n  }\n": typeof types.TransactionDetailDocument,
    "\n  query NetworkNames($country: String!, $type: ChannelType!) {\n    networks(countryCode: $country, channel: $type) {\n      networkId\n      name\n    }\n  }\n": typeof types.NetworkNamesDocument,
    "\n  fragment RefundFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n  }\n": typeof types.RefundFieldsFragmentDoc,
    "\n  mutation RefundPayment($input: RefundPaymentInput!) {\n    refundPayment(input: $input) {\n      ...RefundFields\n    }\n  }\n": typeof types.RefundPaymentDocument,
    "\n  subscription RefundChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...RefundFields\n    }\n  }\n": typeof types.RefundChangedDocument,
    "\n  subscription TransactionStatusChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      status\n    }\n  }\n": typeof types.TransactionStatusChangedDocument,
    "\n  mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {\n    simulateTransaction(reference: $r, outcome: $o) {\n      status\n    }\n  }\n": typeof types.SimulateTransactionDocument,
    "\n  query PaymentDisputes($r: String!) {\n    disputes(paymentReference: $r, first: 5) {\n      edges {\n        node {\n          id\n          status\n        }\n      }\n    }\n  }\n": typeof types.PaymentDisputesDocument,
    "\n  query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {\n    transactions(filter: $filter, search: $search, first: $first, after: $after) {\n      edges {\n        node {\n          ...TransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.TransactionsDocument,
    "\n  mutation BeginTwoFactor {\n    beginTwoFactorEnrolment {\n      secret\n      otpauthUri\n      qrSvg\n    }\n  }\n": typeof types.BeginTwoFactorDocument,
    "\n  mutation ConfirmTwoFactor($code: String!) {\n    confirmTwoFactor(code: $code)\n  }\n": typeof types.ConfirmTwoFactorDocument,
    "\n  mutation DisableTwoFactor($password: String!, $code: String!) {\n    disableTwoFactor(password: $password, code: $code)\n  }\n": typeof types.DisableTwoFactorDocument,
    "\n  query WebhookSettings {\n    merchant {\n      webhookUrl\n      webhookEventTypes\n    }\n    webhookEventTypes\n  }\n": typeof types.WebhookSettingsDocument,
    "\n  mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {\n    setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {\n      webhookUrl\n      webhookEventTypes\n    }\n  }\n": typeof types.ChooseWebhookEventTypesDocument,
    "\n  mutation SendWebhookTestEvent {\n    sendWebhookTestEvent {\n      id\n      deliveryStatus\n      attempts {\n        statusCode\n        latencyMs\n        success\n        error\n      }\n    }\n  }\n": typeof types.SendWebhookTestEventDocument,
    "\n  query WebhookSecretOverlap {\n    merchant {\n      webhookSecretOverlapUntil\n    }\n  }\n": typeof types.WebhookSecretOverlapDocument,
    "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      webhookSecret\n      previousSecretExpiresAt\n    }\n  }\n": typeof types.RotateWebhookSecretDocument,
    "\n  fragment WebhookEventRow on WebhookEvent {\n    id\n    type\n    reference\n    customerUuid\n    customer {\n      firstName\n      lastName\n    }\n    createdAt\n    deliveryStatus\n    attemptCount\n    deliveredAt\n    nextAttemptAt\n  }\n": typeof types.WebhookEventRowFragmentDoc,
    "\n  fragment WebhookEventFull on WebhookEvent {\n    ...WebhookEventRow\n    data\n    attempts {\n      attemptNumber\n      attemptedAt\n      url\n      statusCode\n      latencyMs\n      success\n      error\n    }\n  }\n": typeof types.WebhookEventFullFragmentDoc,
    "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n": typeof types.WebhookEventTypesDocument,
    "\n  query WebhookEndpoint {\n    merchant {\n      webhookUrl\n    }\n  }\n": typeof types.WebhookEndpointDocument,
    "\n  mutation SetWebhookEndpoint($url: String) {\n    setWebhookEndpoint(url: $url) {\n      webhookUrl\n    }\n  }\n": typeof types.SetWebhookEndpointDocument,
    "\n  query WebhookEvents($type: String) {\n    webhookEvents(first: 50, type: $type) {\n      edges {\n        node {\n          ...WebhookEventRow\n        }\n      }\n    }\n  }\n": typeof types.WebhookEventsDocument,
    "\n  query WebhookEventDetail($id: String!) {\n    webhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": typeof types.WebhookEventDetailDocument,
    "\n  mutation ResendWebhookEvent($id: String!) {\n    resendWebhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": typeof types.ResendWebhookEventDocument,
    "\n  fragment DisputeFields on Dispute {\n    id\n    paymentReference\n    amount\n    currency\n    reason\n    status\n    evidenceDueBy\n    submissionCount\n    provider\n    providerStatus\n    fee\n    createdAt\n    closedAt\n  }\n": typeof types.DisputeFieldsFragmentDoc,
    "\n  subscription DisputeChanged {\n    disputeChanged {\n      ...DisputeFields\n    }\n  }\n": typeof types.DisputeChangedDocument,
    "\n  fragment BalanceFields on Balance {\n    currency\n    available\n    pending\n    reserved\n    disputed\n    owed\n  }\n": typeof types.BalanceFieldsFragmentDoc,
    "\n  query Balances {\n    balances {\n      ...BalanceFields\n    }\n  }\n": typeof types.BalancesDocument,
    "\n  subscription BalanceChanged($currency: String) {\n    balanceChanged(currency: $currency) {\n      ...BalanceFields\n    }\n  }\n": typeof types.BalanceChangedDocument,
    "\n  fragment BalanceTransactionFields on BalanceTransaction {\n    id\n    type\n    currency\n    amount\n    fee\n    net\n    balanceAfter\n    sourceReference\n    createdAt\n  }\n": typeof types.BalanceTransactionFieldsFragmentDoc,
    "\n  fragment TransactionFields on Transaction {\n    reference\n    externalReference\n    type\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n    customerUuid\n    customer {\n      firstName\n      lastName\n      email\n    }\n    counterparty {\n      name\n      account\n    }\n    accountType\n    createdAt\n    updatedAt\n    completedAt\n  }\n": typeof types.TransactionFieldsFragmentDoc,
    "\n  subscription TransactionChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...TransactionFields\n    }\n  }\n": typeof types.TransactionChangedDocument,
};
const documents: Documents = {
    "\n  query Me {\n    me {\n      kind\n      role\n      enrolmentOnly\n      permissions\n      merchantId\n      merchantName\n      user {\n        id\n        email\n        name\n        emailVerified\n        twoFactorEnabled\n      }\n      memberships {\n        merchantId\n        merchantName\n        role\n      }\n    }\n  }\n": types.MeDocument,
    "\n  query Environment {\n    environment\n  }\n": types.EnvironmentDocument,
    "\n  fragment FundingFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    fee\n    expiresAt\n    bankInfo {\n      accountName\n      accountNumber\n      bankName\n      localCode\n    }\n  }\n": types.FundingFieldsFragmentDoc,
    "\n  mutation FundBalance($input: FundBalanceInput!) {\n    fundBalance(input: $input) {\n      ...FundingFields\n    }\n  }\n": types.FundBalanceDocument,
    "\n  mutation SimulateFundingArrival($r: String!) {\n    simulateTransaction(reference: $r, outcome: SUCCESSFUL) {\n      ...FundingFields\n    }\n  }\n": types.SimulateFundingArrivalDocument,
    "\n  subscription FundingDecided($r: String) {\n    transactionStatusChanged(reference: $r, statuses: [SUCCESSFUL, FAILED, EXPIRED]) {\n      ...FundingFields\n    }\n  }\n": types.FundingDecidedDocument,
    "\n  query FundingCurrencies {\n    countries {\n      currency\n    }\n  }\n": types.FundingCurrenciesDocument,
    "\n  query ApiKeys {\n    apiKeys {\n      id\n      label\n      role\n      clientId\n      createdAt\n      createdBy\n      lastUsedAt\n      revokedAt\n    }\n  }\n": types.ApiKeysDocument,
    "\n  mutation CreateApiKey($label: String!, $role: KeyRole) {\n    createApiKey(label: $label, role: $role) {\n      apiKey {\n        id\n        clientId\n      }\n      clientSecret\n    }\n  }\n": types.CreateApiKeyDocument,
    "\n  mutation RotateApiKey($id: ID!) {\n    rotateApiKey(id: $id) {\n      apiKey {\n        id\n        clientId\n      }\n      clientSecret\n    }\n  }\n": types.RotateApiKeyDocument,
    "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": types.RevokeApiKeyDocument,
    "\n  fragment AuditLogEntryFields on AuditLogEntry {\n    id\n    createdAt\n    action\n    actorType\n    actorId\n    actorLabel\n    role\n    targetType\n    targetId\n    ip\n    userAgent\n    before\n    after\n  }\n": types.AuditLogEntryFieldsFragmentDoc,
    "\n  query AuditLog($filter: AuditLogFilter, $first: Int, $after: String) {\n    auditLog(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...AuditLogEntryFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.AuditLogDocument,
    "\n  query AuditLogPeople {\n    teamMembers {\n      userId\n      email\n    }\n  }\n": types.AuditLogPeopleDocument,
    "\n  query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {\n    balanceTransactions(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...BalanceTransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.BalanceTransactionsDocument,
    "\n  fragment CustomerRow on Customer {\n    customerUuid\n    customerId\n    firstName\n    lastName\n    countryCode\n    kycStatus\n    overallKycStatus\n    createdAt\n  }\n": types.CustomerRowFragmentDoc,
    "\n  query Customers($after: String) {\n    customers(first: 20, after: $after) {\n      edges {\n        node {\n          ...CustomerRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.CustomersDocument,
    "\n  query Customer($u: String!) {\n    customer(uuid: $u) {\n      ...CustomerRow\n      email\n      phoneNumber\n      dialCode\n      dateOfBirth\n    }\n    kyc(customerUuid: $u) {\n      kycStatus\n      overallKycStatus\n      submittedAt\n      reviewedAt\n      rejectionReason\n    }\n  }\n": types.CustomerDocument,
    "\n  query DisputeDetail($id: ID!) {\n    dispute(id: $id) {\n      ...DisputeFields\n      funds\n      evidence {\n        productDescription\n        customerCommunication\n        refundPolicy\n        serviceDate\n        serviceDetails\n        uncategorizedText\n        files {\n          id\n          filename\n          contentType\n          size\n        }\n      }\n    }\n  }\n": types.DisputeDetailDocument,
    "\n  query DisputedPayment($r: String!) {\n    transaction(reference: $r) {\n      reference\n      externalReference\n      status\n      amount\n      currency\n      card {\n        brand\n        last4\n      }\n      createdAt\n    }\n  }\n": types.DisputedPaymentDocument,
    "\n  mutation UpdateDisputeEvidence($id: ID!, $input: DisputeEvidenceInput!) {\n    updateDisputeEvidence(id: $id, input: $input) {\n      id\n    }\n  }\n": types.UpdateDisputeEvidenceDocument,
    "\n  mutation SubmitDispute($id: ID!) {\n    submitDispute(id: $id) {\n      id\n      status\n    }\n  }\n": types.SubmitDisputeDocument,
    "\n  mutation AcceptDispute($id: ID!) {\n    acceptDispute(id: $id) {\n      id\n      status\n    }\n  }\n": types.AcceptDisputeDocument,
    "\n  query Disputes($status: DisputeStatus, $first: Int, $after: String) {\n    disputes(status: $status, first: $first, after: $after) {\n      edges {\n        node {\n          ...DisputeFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.DisputesDocument,
    "\n  query OpenDisputeCount {\n    openDisputeCount\n  }\n": types.OpenDisputeCountDocument,
    "\n  query Invitations {\n    invitations {\n      id\n      email\n      role\n      status\n      createdAt\n      expiresAt\n    }\n  }\n": types.InvitationsDocument,
    "\n  mutation InviteMember($email: String!, $role: Role!) {\n    inviteMember(email: $email, role: $role) {\n      id\n      email\n    }\n  }\n": types.InviteMemberDocument,
    "\n  mutation ResendInvitation($id: ID!) {\n    resendInvitation(id: $id) {\n      id\n      expiresAt\n    }\n  }\n": types.ResendInvitationDocument,
    "\n  mutation RevokeInvitation($id: ID!) {\n    revokeInvitation(id: $id) {\n      id\n      status\n    }\n  }\n": types.RevokeInvitationDocument,
    "\n  query UpcomingPayout($currency: String!) {\n    upcomingPayout(currency: $currency) {\n      currency\n      scheduledAt\n      expectedAmount\n      minimumAmount\n      destination\n    }\n  }\n": types.UpcomingPayoutDocument,
    "\n  query Activity($days: Int) {\n    activity(days: $days) {\n      days {\n        day\n        currency\n        collected\n        paidOut\n      }\n      finalCount\n      successfulCount\n      successRate\n    }\n  }\n": types.ActivityDocument,
    "\n  query PaymentLinks {\n    paymentLinks(first: 100) {\n      edges {\n        node {\n          id\n          name\n          slug\n          url\n          qrSvg\n          active\n          amount\n          minAmount\n          maxAmount\n          currency\n          paymentsCount\n          maxPayments\n          expiresAt\n          createdAt\n        }\n      }\n    }\n  }\n": types.PaymentLinksDocument,
    "\n  mutation CreatePaymentLink($input: CreatePaymentLinkInput!) {\n    createPaymentLink(input: $input) {\n      id\n      url\n    }\n  }\n": types.CreatePaymentLinkDocument,
    "\n  mutation DeactivatePaymentLink($id: ID!) {\n    deactivatePaymentLink(id: $id) {\n      id\n      active\n    }\n  }\n": types.DeactivatePaymentLinkDocument,
    "\n  query PaymentLinkPayments($link: String!) {\n    transactions(first: 50, filter: { paymentLinkId: $link }) {\n      edges {\n        node {\n          reference\n          externalReference\n          status\n          amount\n          currency\n          createdAt\n        }\n      }\n    }\n  }\n": types.PaymentLinkPaymentsDocument,
    "\n  query PayoutDestinations {\n    payoutDestinations {\n      id\n      currency\n      accountType\n      countryCode\n      institution\n      masked\n      accountName\n      status\n      effectiveAt\n      createdAt\n      createdBy {\n        id\n        email\n      }\n      approvedBy {\n        email\n      }\n    }\n  }\n": types.PayoutDestinationsDocument,
    "\n  mutation AddPayoutDestination($input: AddPayoutDestinationInput!) {\n    addPayoutDestination(input: $input) {\n      id\n      masked\n      accountName\n      status\n      effectiveAt\n    }\n  }\n": types.AddPayoutDestinationDocument,
    "\n  mutation ApprovePayoutDestination($id: ID!) {\n    approvePayoutDestination(id: $id) {\n      id\n      status\n    }\n  }\n": types.ApprovePayoutDestinationDocument,
    "\n  mutation CancelPayoutDestination($id: ID!) {\n    cancelPayoutDestination(id: $id) {\n      id\n      status\n    }\n  }\n": types.CancelPayoutDestinationDocument,
    "\n  query Payout($id: ID!) {\n    payout(id: $id) {\n      ...PayoutFields\n      report {\n        currency\n        grossCollected\n        fees\n        refunds\n        transfers\n        adjustments\n        payouts\n        carriedIn\n        carriedOut\n        net\n        balanceTransactions\n      }\n      balanceTransactions {\n        ...BalanceTransactionFields\n      }\n    }\n  }\n": types.PayoutDocument,
    "\n  query PayoutSchedule($currency: String!) {\n    payoutSchedule(currency: $currency) {\n      ...PayoutScheduleFields\n    }\n  }\n  fragment PayoutScheduleFields on PayoutSchedule {\n    currency\n    interval\n    weeklyAnchor\n    monthlyAnchor\n    delayDays\n    cutoffTime\n    timeZone\n    minimumAmount\n    nextPayoutAt\n    isDefault\n  }\n": types.PayoutScheduleDocument,
    "\n  mutation UpdatePayoutSchedule($input: PayoutScheduleInput!) {\n    updatePayoutSchedule(input: $input) {\n      ...PayoutScheduleFields\n    }\n  }\n": types.UpdatePayoutScheduleDocument,
    "\n  fragment PayoutFields on Payout {\n    id\n    createdAt\n    amount\n    fee\n    currency\n    status\n    automatic\n    window\n    expectedArrivalAt\n    completedAt\n    failureReason\n    traceReference\n    transactionReference\n    destination {\n      accountName\n      accountNumberMasked\n      networkName\n      accountType\n      countryCode\n    }\n  }\n": types.PayoutFieldsFragmentDoc,
    "\n  query Payouts($currency: String, $first: Int, $after: String) {\n    payouts(currency: $currency, first: $first, after: $after) {\n      edges {\n        node {\n          ...PayoutFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.PayoutsDocument,
    "\n  mutation CreatePayout($input: CreatePayoutInput!) {\n    createPayout(input: $input) {\n      ...PayoutFields\n    }\n  }\n": types.CreatePayoutDocument,
    "\n  query MySessions {\n    mySessions {\n      id\n      userAgent\n      ip\n      createdAt\n      lastSeenAt\n      current\n    }\n  }\n": types.MySessionsDocument,
    "\n  mutation EndSession($id: ID!) {\n    endSession(id: $id)\n  }\n": types.EndSessionDocument,
    "\n  mutation EndOtherSessions {\n    endOtherSessions\n  }\n": types.EndOtherSessionsDocument,
    "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n": types.ChangePasswordDocument,
    "\n  mutation EnrollCustomer($input: EnrollCustomerInput!) {\n    enrollCustomer(input: $input) {\n      customerUuid\n      firstName\n      lastName\n    }\n  }\n": types.EnrollCustomerDocument,
    "\n  mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {\n    submitKyc(customerUuid: $u, input: $input) {\n      kycStatus\n    }\n  }\n": types.SubmitKycDocument,
    "\n  fragment PaymentFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n  }\n": types.PaymentFieldsFragmentDoc,
    "\n  subscription PaymentChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...PaymentFields\n    }\n  }\n": types.PaymentChangedDocument,
    "\n  mutation InitiatePayment($input: InitiatePaymentInput!) {\n    initiatePayment(input: $input) {\n      ...PaymentFields\n      nextAction {\n        url\n      }\n    }\n  }\n": types.InitiatePaymentDocument,
    "\n  fragment SandboxTransactionFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n  }\n": types.SandboxTransactionFieldsFragmentDoc,
    "\n  mutation SandboxCollect($input: InitiateCollectionInput!) {\n    initiateCollection(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": types.SandboxCollectDocument,
    "\n  mutation SandboxTransfer($input: InitiateTransferInput!) {\n    initiateTransfer(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n": types.SandboxTransferDocument,
    "\n  subscription SandboxKycChanged {\n    kycStatusChanged {\n      customerUuid\n      kycStatus\n    }\n  }\n": types.SandboxKycChangedDocument,
    "\n  mutation TopUpBalance($currency: String!, $amount: Decimal!) {\n    topUpBalance(currency: $currency, amount: $amount) {\n      ...BalanceFields\n    }\n  }\n": types.TopUpBalanceDocument,
    "\n  query SandboxCountries {\n    countries {\n      countryCode\n      name\n      currency\n      dialCode\n      exampleMobileNumber\n    }\n  }\n": types.SandboxCountriesDocument,
    "\n  query SandboxChannels($country: String!, $ramp: RampType!) {\n    channels(countryCode: $country, rampType: $ramp) {\n      channelId\n      channelType\n      currency\n      minAmount\n      status\n    }\n  }\n": types.SandboxChannelsDocument,
    "\n  query SandboxNetworks($country: String!, $type: ChannelType!) {\n    networks(countryCode: $country, channel: $type) {\n      networkId\n      name\n    }\n  }\n": types.SandboxNetworksDocument,
    "\n  query SandboxCustomers {\n    customers(first: 100) {\n      edges {\n        node {\n          customerUuid\n          firstName\n          lastName\n          kycStatus\n        }\n      }\n    }\n  }\n": types.SandboxCustomersDocument,
    "\n  query TeamMembers {\n    teamMembers {\n      id\n      userId\n      email\n      name\n      role\n      twoFactorEnabled\n      lastSignInAt\n      createdAt\n    }\n  }\n": types.TeamMembersDocument,
    "\n  query TeamSettings {\n    teamSettings {\n      twoFactorRequired\n    }\n  }\n": types.TeamSettingsDocument,
    "\n  mutation ChangeMemberRole($id: ID!, $role: Role!) {\n    changeMemberRole(id: $id, role: $role) {\n      id\n      role\n    }\n  }\n": types.ChangeMemberRoleDocument,
    "\n  mutation RemoveMember($id: ID!) {\n    removeMember(id: $id)\n  }\n": types.RemoveMemberDocument,
    "\n  mutation TransferOwnership($id: ID!) {\n    transferOwnership(id: $id) {\n      id\n      role\n    }\n  }\n": types.TransferOwnershipDocument,
    "\n  mutation SetTwoFactorRequired($required: Boolean!) {\n    setTwoFactorRequired(required: $required)\n  }\n": types.SetTwoFactorRequiredDocument,
    "\n  query TransactionDetail($r: String!) {\n    transaction(reference: $r) {\n      ...TransactionFields\n      rate\n      fee\n      accountNumber\n      countryCode\n      networkId\n      expiresAt\n      amountRefunded\n      paymentReference\n      bankInfo {\n        accountName\n        accountNumber\n        bankName\n        bankCode\n      }\n      card {\n        brand\n        last4\n      }\n      paymentMethod\n      checkoutSessionId\n      history {\n        fromStatus\n        toStatus\n        reason\n        occurredAt\n      }\n    }\n  }\n": types.TransactionDetailDocument,
    "\n  query NetworkNames($country: String!, $type: ChannelType!) {\n    networks(countryCode: $country, channel: $type) {\n      networkId\n      name\n    }\n  }\n": types.NetworkNamesDocument,
    "\n  fragment RefundFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n  }\n": types.RefundFieldsFragmentDoc,
    "\n  mutation RefundPayment($input: RefundPaymentInput!) {\n    refundPayment(input: $input) {\n      ...RefundFields\n    }\n  }\n": types.RefundPaymentDocument,
    "\n  subscription RefundChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...RefundFields\n    }\n  }\n": types.RefundChangedDocument,
    "\n  subscription TransactionStatusChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      status\n    }\n  }\n": types.TransactionStatusChangedDocument,
    "\n  mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {\n    simulateTransaction(reference: $r, outcome: $o) {\n      status\n    }\n  }\n": types.SimulateTransactionDocument,
    "\n  query PaymentDisputes($r: String!) {\n    disputes(paymentReference: $r, first: 5) {\n      edges {\n        node {\n          id\n          status\n        }\n      }\n    }\n  }\n": types.PaymentDisputesDocument,
    "\n  query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {\n    transactions(filter: $filter, search: $search, first: $first, after: $after) {\n      edges {\n        node {\n          ...TransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.TransactionsDocument,
    "\n  mutation BeginTwoFactor {\n    beginTwoFactorEnrolment {\n      secret\n      otpauthUri\n      qrSvg\n    }\n  }\n": types.BeginTwoFactorDocument,
    "\n  mutation ConfirmTwoFactor($code: String!) {\n    confirmTwoFactor(code: $code)\n  }\n": types.ConfirmTwoFactorDocument,
    "\n  mutation DisableTwoFactor($password: String!, $code: String!) {\n    disableTwoFactor(password: $password, code: $code)\n  }\n": types.DisableTwoFactorDocument,
    "\n  query WebhookSettings {\n    merchant {\n      webhookUrl\n      webhookEventTypes\n    }\n    webhookEventTypes\n  }\n": types.WebhookSettingsDocument,
    "\n  mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {\n    setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {\n      webhookUrl\n      webhookEventTypes\n    }\n  }\n": types.ChooseWebhookEventTypesDocument,
    "\n  mutation SendWebhookTestEvent {\n    sendWebhookTestEvent {\n      id\n      deliveryStatus\n      attempts {\n        statusCode\n        latencyMs\n        success\n        error\n      }\n    }\n  }\n": types.SendWebhookTestEventDocument,
    "\n  query WebhookSecretOverlap {\n    merchant {\n      webhookSecretOverlapUntil\n    }\n  }\n": types.WebhookSecretOverlapDocument,
    "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      webhookSecret\n      previousSecretExpiresAt\n    }\n  }\n": types.RotateWebhookSecretDocument,
    "\n  fragment WebhookEventRow on WebhookEvent {\n    id\n    type\n    reference\n    customerUuid\n    customer {\n      firstName\n      lastName\n    }\n    createdAt\n    deliveryStatus\n    attemptCount\n    deliveredAt\n    nextAttemptAt\n  }\n": types.WebhookEventRowFragmentDoc,
    "\n  fragment WebhookEventFull on WebhookEvent {\n    ...WebhookEventRow\n    data\n    attempts {\n      attemptNumber\n      attemptedAt\n      url\n      statusCode\n      latencyMs\n      success\n      error\n    }\n  }\n": types.WebhookEventFullFragmentDoc,
    "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n": types.WebhookEventTypesDocument,
    "\n  query WebhookEndpoint {\n    merchant {\n      webhookUrl\n    }\n  }\n": types.WebhookEndpointDocument,
    "\n  mutation SetWebhookEndpoint($url: String) {\n    setWebhookEndpoint(url: $url) {\n      webhookUrl\n    }\n  }\n": types.SetWebhookEndpointDocument,
    "\n  query WebhookEvents($type: String) {\n    webhookEvents(first: 50, type: $type) {\n      edges {\n        node {\n          ...WebhookEventRow\n        }\n      }\n    }\n  }\n": types.WebhookEventsDocument,
    "\n  query WebhookEventDetail($id: String!) {\n    webhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": types.WebhookEventDetailDocument,
    "\n  mutation ResendWebhookEvent($id: String!) {\n    resendWebhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n": types.ResendWebhookEventDocument,
    "\n  fragment DisputeFields on Dispute {\n    id\n    paymentReference\n    amount\n    currency\n    reason\n    status\n    evidenceDueBy\n    submissionCount\n    provider\n    providerStatus\n    fee\n    createdAt\n    closedAt\n  }\n": types.DisputeFieldsFragmentDoc,
    "\n  subscription DisputeChanged {\n    disputeChanged {\n      ...DisputeFields\n    }\n  }\n": types.DisputeChangedDocument,
    "\n  fragment BalanceFields on Balance {\n    currency\n    available\n    pending\n    reserved\n    disputed\n    owed\n  }\n": types.BalanceFieldsFragmentDoc,
    "\n  query Balances {\n    balances {\n      ...BalanceFields\n    }\n  }\n": types.BalancesDocument,
    "\n  subscription BalanceChanged($currency: String) {\n    balanceChanged(currency: $currency) {\n      ...BalanceFields\n    }\n  }\n": types.BalanceChangedDocument,
    "\n  fragment BalanceTransactionFields on BalanceTransaction {\n    id\n    type\n    currency\n    amount\n    fee\n    net\n    balanceAfter\n    sourceReference\n    createdAt\n  }\n": types.BalanceTransactionFieldsFragmentDoc,
    "\n  fragment TransactionFields on Transaction {\n    reference\n    externalReference\n    type\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n    customerUuid\n    customer {\n      firstName\n      lastName\n      email\n    }\n    counterparty {\n      name\n      account\n    }\n    accountType\n    createdAt\n    updatedAt\n    completedAt\n  }\n": types.TransactionFieldsFragmentDoc,
    "\n  subscription TransactionChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...TransactionFields\n    }\n  }\n": types.TransactionChangedDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Me {\n    me {\n      kind\n      role\n      enrolmentOnly\n      permissions\n      merchantId\n      merchantName\n      user {\n        id\n        email\n        name\n        emailVerified\n        twoFactorEnabled\n      }\n      memberships {\n        merchantId\n        merchantName\n        role\n      }\n    }\n  }\n"): typeof import('./graphql').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Environment {\n    environment\n  }\n"): typeof import('./graphql').EnvironmentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment FundingFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    fee\n    expiresAt\n    bankInfo {\n      accountName\n      accountNumber\n      bankName\n      localCode\n    }\n  }\n"): typeof import('./graphql').FundingFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation FundBalance($input: FundBalanceInput!) {\n    fundBalance(input: $input) {\n      ...FundingFields\n    }\n  }\n"): typeof import('./graphql').FundBalanceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SimulateFundingArrival($r: String!) {\n    simulateTransaction(reference: $r, outcome: SUCCESSFUL) {\n      ...FundingFields\n    }\n  }\n"): typeof import('./graphql').SimulateFundingArrivalDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription FundingDecided($r: String) {\n    transactionStatusChanged(reference: $r, statuses: [SUCCESSFUL, FAILED, EXPIRED]) {\n      ...FundingFields\n    }\n  }\n"): typeof import('./graphql').FundingDecidedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query FundingCurrencies {\n    countries {\n      currency\n    }\n  }\n"): typeof import('./graphql').FundingCurrenciesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query ApiKeys {\n    apiKeys {\n      id\n      label\n      role\n      clientId\n      createdAt\n      createdBy\n      lastUsedAt\n      revokedAt\n    }\n  }\n"): typeof import('./graphql').ApiKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreateApiKey($label: String!, $role: KeyRole) {\n    createApiKey(label: $label, role: $role) {\n      apiKey {\n        id\n        clientId\n      }\n      clientSecret\n    }\n  }\n"): typeof import('./graphql').CreateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateApiKey($id: ID!) {\n    rotateApiKey(id: $id) {\n      apiKey {\n        id\n        clientId\n      }\n      clientSecret\n    }\n  }\n"): typeof import('./graphql').RotateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"): typeof import('./graphql').RevokeApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment AuditLogEntryFields on AuditLogEntry {\n    id\n    createdAt\n    action\n    actorType\n    actorId\n    actorLabel\n    role\n    targetType\n    targetId\n    ip\n    userAgent\n    before\n    after\n  }\n"): typeof import('./graphql').AuditLogEntryFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLog($filter: AuditLogFilter, $first: Int, $after: String) {\n    auditLog(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...AuditLogEntryFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').AuditLogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query AuditLogPeople {\n    teamMembers {\n      userId\n      email\n    }\n  }\n"): typeof import('./graphql').AuditLogPeopleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query BalanceTransactions($filter: BalanceTransactionFilter, $first: Int, $after: String) {\n    balanceTransactions(filter: $filter, first: $first, after: $after) {\n      edges {\n        node {\n          ...BalanceTransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').BalanceTransactionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment CustomerRow on Customer {\n    customerUuid\n    customerId\n    firstName\n    lastName\n    countryCode\n    kycStatus\n    overallKycStatus\n    createdAt\n  }\n"): typeof import('./graphql').CustomerRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customers($after: String) {\n    customers(first: 20, after: $after) {\n      edges {\n        node {\n          ...CustomerRow\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').CustomersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Customer($u: String!) {\n    customer(uuid: $u) {\n      ...CustomerRow\n      email\n      phoneNumber\n      dialCode\n      dateOfBirth\n    }\n    kyc(customerUuid: $u) {\n      kycStatus\n      overallKycStatus\n      submittedAt\n      reviewedAt\n      rejectionReason\n    }\n  }\n"): typeof import('./graphql').CustomerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DisputeDetail($id: ID!) {\n    dispute(id: $id) {\n      ...DisputeFields\n      funds\n      evidence {\n        productDescription\n        customerCommunication\n        refundPolicy\n        serviceDate\n        serviceDetails\n        uncategorizedText\n        files {\n          id\n          filename\n          contentType\n          size\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DisputeDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DisputedPayment($r: String!) {\n    transaction(reference: $r) {\n      reference\n      externalReference\n      status\n      amount\n      currency\n      card {\n        brand\n        last4\n      }\n      createdAt\n    }\n  }\n"): typeof import('./graphql').DisputedPaymentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdateDisputeEvidence($id: ID!, $input: DisputeEvidenceInput!) {\n    updateDisputeEvidence(id: $id, input: $input) {\n      id\n    }\n  }\n"): typeof import('./graphql').UpdateDisputeEvidenceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubmitDispute($id: ID!) {\n    submitDispute(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').SubmitDisputeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AcceptDispute($id: ID!) {\n    acceptDispute(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').AcceptDisputeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Disputes($status: DisputeStatus, $first: Int, $after: String) {\n    disputes(status: $status, first: $first, after: $after) {\n      edges {\n        node {\n          ...DisputeFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').DisputesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query OpenDisputeCount {\n    openDisputeCount\n  }\n"): typeof import('./graphql').OpenDisputeCountDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Invitations {\n    invitations {\n      id\n      email\n      role\n      status\n      createdAt\n      expiresAt\n    }\n  }\n"): typeof import('./graphql').InvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InviteMember($email: String!, $role: Role!) {\n    inviteMember(email: $email, role: $role) {\n      id\n      email\n    }\n  }\n"): typeof import('./graphql').InviteMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendInvitation($id: ID!) {\n    resendInvitation(id: $id) {\n      id\n      expiresAt\n    }\n  }\n"): typeof import('./graphql').ResendInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RevokeInvitation($id: ID!) {\n    revokeInvitation(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').RevokeInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query UpcomingPayout($currency: String!) {\n    upcomingPayout(currency: $currency) {\n      currency\n      scheduledAt\n      expectedAmount\n      minimumAmount\n      destination\n    }\n  }\n"): typeof import('./graphql').UpcomingPayoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Activity($days: Int) {\n    activity(days: $days) {\n      days {\n        day\n        currency\n        collected\n        paidOut\n      }\n      finalCount\n      successfulCount\n      successRate\n    }\n  }\n"): typeof import('./graphql').ActivityDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PaymentLinks {\n    paymentLinks(first: 100) {\n      edges {\n        node {\n          id\n          name\n          slug\n          url\n          qrSvg\n          active\n          amount\n          minAmount\n          maxAmount\n          currency\n          paymentsCount\n          maxPayments\n          expiresAt\n          createdAt\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').PaymentLinksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePaymentLink($input: CreatePaymentLinkInput!) {\n    createPaymentLink(input: $input) {\n      id\n      url\n    }\n  }\n"): typeof import('./graphql').CreatePaymentLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DeactivatePaymentLink($id: ID!) {\n    deactivatePaymentLink(id: $id) {\n      id\n      active\n    }\n  }\n"): typeof import('./graphql').DeactivatePaymentLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PaymentLinkPayments($link: String!) {\n    transactions(first: 50, filter: { paymentLinkId: $link }) {\n      edges {\n        node {\n          reference\n          externalReference\n          status\n          amount\n          currency\n          createdAt\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').PaymentLinkPaymentsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayoutDestinations {\n    payoutDestinations {\n      id\n      currency\n      accountType\n      countryCode\n      institution\n      masked\n      accountName\n      status\n      effectiveAt\n      createdAt\n      createdBy {\n        id\n        email\n      }\n      approvedBy {\n        email\n      }\n    }\n  }\n"): typeof import('./graphql').PayoutDestinationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation AddPayoutDestination($input: AddPayoutDestinationInput!) {\n    addPayoutDestination(input: $input) {\n      id\n      masked\n      accountName\n      status\n      effectiveAt\n    }\n  }\n"): typeof import('./graphql').AddPayoutDestinationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ApprovePayoutDestination($id: ID!) {\n    approvePayoutDestination(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').ApprovePayoutDestinationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CancelPayoutDestination($id: ID!) {\n    cancelPayoutDestination(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').CancelPayoutDestinationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payout($id: ID!) {\n    payout(id: $id) {\n      ...PayoutFields\n      report {\n        currency\n        grossCollected\n        fees\n        refunds\n        transfers\n        adjustments\n        payouts\n        carriedIn\n        carriedOut\n        net\n        balanceTransactions\n      }\n      balanceTransactions {\n        ...BalanceTransactionFields\n      }\n    }\n  }\n"): typeof import('./graphql').PayoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PayoutSchedule($currency: String!) {\n    payoutSchedule(currency: $currency) {\n      ...PayoutScheduleFields\n    }\n  }\n  fragment PayoutScheduleFields on PayoutSchedule {\n    currency\n    interval\n    weeklyAnchor\n    monthlyAnchor\n    delayDays\n    cutoffTime\n    timeZone\n    minimumAmount\n    nextPayoutAt\n    isDefault\n  }\n"): typeof import('./graphql').PayoutScheduleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation UpdatePayoutSchedule($input: PayoutScheduleInput!) {\n    updatePayoutSchedule(input: $input) {\n      ...PayoutScheduleFields\n    }\n  }\n"): typeof import('./graphql').UpdatePayoutScheduleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PayoutFields on Payout {\n    id\n    createdAt\n    amount\n    fee\n    currency\n    status\n    automatic\n    window\n    expectedArrivalAt\n    completedAt\n    failureReason\n    traceReference\n    transactionReference\n    destination {\n      accountName\n      accountNumberMasked\n      networkName\n      accountType\n      countryCode\n    }\n  }\n"): typeof import('./graphql').PayoutFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Payouts($currency: String, $first: Int, $after: String) {\n    payouts(currency: $currency, first: $first, after: $after) {\n      edges {\n        node {\n          ...PayoutFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').PayoutsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation CreatePayout($input: CreatePayoutInput!) {\n    createPayout(input: $input) {\n      ...PayoutFields\n    }\n  }\n"): typeof import('./graphql').CreatePayoutDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query MySessions {\n    mySessions {\n      id\n      userAgent\n      ip\n      createdAt\n      lastSeenAt\n      current\n    }\n  }\n"): typeof import('./graphql').MySessionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EndSession($id: ID!) {\n    endSession(id: $id)\n  }\n"): typeof import('./graphql').EndSessionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EndOtherSessions {\n    endOtherSessions\n  }\n"): typeof import('./graphql').EndOtherSessionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword)\n  }\n"): typeof import('./graphql').ChangePasswordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation EnrollCustomer($input: EnrollCustomerInput!) {\n    enrollCustomer(input: $input) {\n      customerUuid\n      firstName\n      lastName\n    }\n  }\n"): typeof import('./graphql').EnrollCustomerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SubmitKyc($u: String!, $input: SubmitKycInput!) {\n    submitKyc(customerUuid: $u, input: $input) {\n      kycStatus\n    }\n  }\n"): typeof import('./graphql').SubmitKycDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment PaymentFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n  }\n"): typeof import('./graphql').PaymentFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription PaymentChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...PaymentFields\n    }\n  }\n"): typeof import('./graphql').PaymentChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation InitiatePayment($input: InitiatePaymentInput!) {\n    initiatePayment(input: $input) {\n      ...PaymentFields\n      nextAction {\n        url\n      }\n    }\n  }\n"): typeof import('./graphql').InitiatePaymentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment SandboxTransactionFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n  }\n"): typeof import('./graphql').SandboxTransactionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SandboxCollect($input: InitiateCollectionInput!) {\n    initiateCollection(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n"): typeof import('./graphql').SandboxCollectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SandboxTransfer($input: InitiateTransferInput!) {\n    initiateTransfer(input: $input) {\n      ...SandboxTransactionFields\n    }\n  }\n"): typeof import('./graphql').SandboxTransferDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription SandboxKycChanged {\n    kycStatusChanged {\n      customerUuid\n      kycStatus\n    }\n  }\n"): typeof import('./graphql').SandboxKycChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TopUpBalance($currency: String!, $amount: Decimal!) {\n    topUpBalance(currency: $currency, amount: $amount) {\n      ...BalanceFields\n    }\n  }\n"): typeof import('./graphql').TopUpBalanceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SandboxCountries {\n    countries {\n      countryCode\n      name\n      currency\n      dialCode\n      exampleMobileNumber\n    }\n  }\n"): typeof import('./graphql').SandboxCountriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SandboxChannels($country: String!, $ramp: RampType!) {\n    channels(countryCode: $country, rampType: $ramp) {\n      channelId\n      channelType\n      currency\n      minAmount\n      status\n    }\n  }\n"): typeof import('./graphql').SandboxChannelsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SandboxNetworks($country: String!, $type: ChannelType!) {\n    networks(countryCode: $country, channel: $type) {\n      networkId\n      name\n    }\n  }\n"): typeof import('./graphql').SandboxNetworksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query SandboxCustomers {\n    customers(first: 100) {\n      edges {\n        node {\n          customerUuid\n          firstName\n          lastName\n          kycStatus\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').SandboxCustomersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TeamMembers {\n    teamMembers {\n      id\n      userId\n      email\n      name\n      role\n      twoFactorEnabled\n      lastSignInAt\n      createdAt\n    }\n  }\n"): typeof import('./graphql').TeamMembersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TeamSettings {\n    teamSettings {\n      twoFactorRequired\n    }\n  }\n"): typeof import('./graphql').TeamSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChangeMemberRole($id: ID!, $role: Role!) {\n    changeMemberRole(id: $id, role: $role) {\n      id\n      role\n    }\n  }\n"): typeof import('./graphql').ChangeMemberRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RemoveMember($id: ID!) {\n    removeMember(id: $id)\n  }\n"): typeof import('./graphql').RemoveMemberDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation TransferOwnership($id: ID!) {\n    transferOwnership(id: $id) {\n      id\n      role\n    }\n  }\n"): typeof import('./graphql').TransferOwnershipDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetTwoFactorRequired($required: Boolean!) {\n    setTwoFactorRequired(required: $required)\n  }\n"): typeof import('./graphql').SetTwoFactorRequiredDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query TransactionDetail($r: String!) {\n    transaction(reference: $r) {\n      ...TransactionFields\n      rate\n      fee\n      accountNumber\n      countryCode\n      networkId\n      expiresAt\n      amountRefunded\n      paymentReference\n      bankInfo {\n        accountName\n        accountNumber\n        bankName\n        bankCode\n      }\n      card {\n        brand\n        last4\n      }\n      paymentMethod\n      checkoutSessionId\n      history {\n        fromStatus\n        toStatus\n        reason\n        occurredAt\n      }\n    }\n  }\n"): typeof import('./graphql').TransactionDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query NetworkNames($country: String!, $type: ChannelType!) {\n    networks(countryCode: $country, channel: $type) {\n      networkId\n      name\n    }\n  }\n"): typeof import('./graphql').NetworkNamesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment RefundFields on Transaction {\n    reference\n    externalReference\n    status\n    failureReason\n    amount\n    currency\n  }\n"): typeof import('./graphql').RefundFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RefundPayment($input: RefundPaymentInput!) {\n    refundPayment(input: $input) {\n      ...RefundFields\n    }\n  }\n"): typeof import('./graphql').RefundPaymentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription RefundChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...RefundFields\n    }\n  }\n"): typeof import('./graphql').RefundChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TransactionStatusChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      status\n    }\n  }\n"): typeof import('./graphql').TransactionStatusChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SimulateTransaction($r: String!, $o: SimulationOutcome!) {\n    simulateTransaction(reference: $r, outcome: $o) {\n      status\n    }\n  }\n"): typeof import('./graphql').SimulateTransactionDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query PaymentDisputes($r: String!) {\n    disputes(paymentReference: $r, first: 5) {\n      edges {\n        node {\n          id\n          status\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').PaymentDisputesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Transactions($filter: TransactionFilter, $search: String, $first: Int, $after: String) {\n    transactions(filter: $filter, search: $search, first: $first, after: $after) {\n      edges {\n        node {\n          ...TransactionFields\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').TransactionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation BeginTwoFactor {\n    beginTwoFactorEnrolment {\n      secret\n      otpauthUri\n      qrSvg\n    }\n  }\n"): typeof import('./graphql').BeginTwoFactorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ConfirmTwoFactor($code: String!) {\n    confirmTwoFactor(code: $code)\n  }\n"): typeof import('./graphql').ConfirmTwoFactorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DisableTwoFactor($password: String!, $code: String!) {\n    disableTwoFactor(password: $password, code: $code)\n  }\n"): typeof import('./graphql').DisableTwoFactorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookSettings {\n    merchant {\n      webhookUrl\n      webhookEventTypes\n    }\n    webhookEventTypes\n  }\n"): typeof import('./graphql').WebhookSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ChooseWebhookEventTypes($url: String, $eventTypes: [String!]) {\n    setWebhookEndpoint(url: $url, eventTypes: $eventTypes) {\n      webhookUrl\n      webhookEventTypes\n    }\n  }\n"): typeof import('./graphql').ChooseWebhookEventTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SendWebhookTestEvent {\n    sendWebhookTestEvent {\n      id\n      deliveryStatus\n      attempts {\n        statusCode\n        latencyMs\n        success\n        error\n      }\n    }\n  }\n"): typeof import('./graphql').SendWebhookTestEventDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookSecretOverlap {\n    merchant {\n      webhookSecretOverlapUntil\n    }\n  }\n"): typeof import('./graphql').WebhookSecretOverlapDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation RotateWebhookSecret {\n    rotateWebhookSecret {\n      webhookSecret\n      previousSecretExpiresAt\n    }\n  }\n"): typeof import('./graphql').RotateWebhookSecretDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookEventRow on WebhookEvent {\n    id\n    type\n    reference\n    customerUuid\n    customer {\n      firstName\n      lastName\n    }\n    createdAt\n    deliveryStatus\n    attemptCount\n    deliveredAt\n    nextAttemptAt\n  }\n"): typeof import('./graphql').WebhookEventRowFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment WebhookEventFull on WebhookEvent {\n    ...WebhookEventRow\n    data\n    attempts {\n      attemptNumber\n      attemptedAt\n      url\n      statusCode\n      latencyMs\n      success\n      error\n    }\n  }\n"): typeof import('./graphql').WebhookEventFullFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEventTypes {\n    webhookEventTypes\n  }\n"): typeof import('./graphql').WebhookEventTypesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEndpoint {\n    merchant {\n      webhookUrl\n    }\n  }\n"): typeof import('./graphql').WebhookEndpointDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation SetWebhookEndpoint($url: String) {\n    setWebhookEndpoint(url: $url) {\n      webhookUrl\n    }\n  }\n"): typeof import('./graphql').SetWebhookEndpointDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEvents($type: String) {\n    webhookEvents(first: 50, type: $type) {\n      edges {\n        node {\n          ...WebhookEventRow\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').WebhookEventsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query WebhookEventDetail($id: String!) {\n    webhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n"): typeof import('./graphql').WebhookEventDetailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation ResendWebhookEvent($id: String!) {\n    resendWebhookEvent(id: $id) {\n      ...WebhookEventFull\n    }\n  }\n"): typeof import('./graphql').ResendWebhookEventDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment DisputeFields on Dispute {\n    id\n    paymentReference\n    amount\n    currency\n    reason\n    status\n    evidenceDueBy\n    submissionCount\n    provider\n    providerStatus\n    fee\n    createdAt\n    closedAt\n  }\n"): typeof import('./graphql').DisputeFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription DisputeChanged {\n    disputeChanged {\n      ...DisputeFields\n    }\n  }\n"): typeof import('./graphql').DisputeChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BalanceFields on Balance {\n    currency\n    available\n    pending\n    reserved\n    disputed\n    owed\n  }\n"): typeof import('./graphql').BalanceFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query Balances {\n    balances {\n      ...BalanceFields\n    }\n  }\n"): typeof import('./graphql').BalancesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription BalanceChanged($currency: String) {\n    balanceChanged(currency: $currency) {\n      ...BalanceFields\n    }\n  }\n"): typeof import('./graphql').BalanceChangedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment BalanceTransactionFields on BalanceTransaction {\n    id\n    type\n    currency\n    amount\n    fee\n    net\n    balanceAfter\n    sourceReference\n    createdAt\n  }\n"): typeof import('./graphql').BalanceTransactionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  fragment TransactionFields on Transaction {\n    reference\n    externalReference\n    type\n    status\n    failureReason\n    amount\n    currency\n    sourceAmount\n    sourceCurrency\n    destinationAmount\n    destinationCurrency\n    customerUuid\n    customer {\n      firstName\n      lastName\n      email\n    }\n    counterparty {\n      name\n      account\n    }\n    accountType\n    createdAt\n    updatedAt\n    completedAt\n  }\n"): typeof import('./graphql').TransactionFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  subscription TransactionChanged($r: String) {\n    transactionStatusChanged(reference: $r) {\n      ...TransactionFields\n    }\n  }\n"): typeof import('./graphql').TransactionChangedDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
