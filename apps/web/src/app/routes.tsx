import { lazy } from 'react';
import { Route, Routes } from 'react-router';
import { RootLayout } from './layout/RootLayout';
import { RequireAuth } from './RequireAuth';

/** One lazy chunk per screen of SPEC.md section 2. */
const HomePage = lazy(() => import('../pages/HomePage'));
const AuthPage = lazy(() => import('../pages/AuthPage'));
const BlogEditorPage = lazy(() => import('../pages/BlogEditorPage'));
const BlogPage = lazy(() => import('../pages/BlogPage'));
const SearchPage = lazy(() => import('../pages/SearchPage'));
const TagPage = lazy(() => import('../pages/TagPage'));
const VerifyEmailPage = lazy(() => import('../pages/VerifyEmailPage'));
const ForgotPasswordPage = lazy(() => import('../pages/ForgotPasswordPage'));
const ResetPasswordPage = lazy(() => import('../pages/ResetPasswordPage'));
const ConfirmTransferPage = lazy(() => import('../pages/ConfirmTransferPage'));
const EditProfilePage = lazy(() => import('../pages/EditProfilePage'));
const SettingsPage = lazy(() => import('../pages/SettingsPage'));
const NotificationsPage = lazy(() => import('../pages/NotificationsPage'));
const ModerationPage = lazy(() => import('../pages/ModerationPage'));
const ProfilePage = lazy(() => import('../pages/ProfilePage'));
const AboutPage = lazy(() => import('../pages/AboutPage'));
const NewsletterConfirmPage = lazy(() => import('../pages/NewsletterConfirmPage'));
const NewsletterUnsubscribePage = lazy(() => import('../pages/NewsletterUnsubscribePage'));
const NotFoundPage = lazy(() => import('../pages/NotFoundPage'));

export function AppRoutes() {
  return (
    <Routes>
      <Route element={<RootLayout />}>
        <Route index element={<HomePage />} />
        <Route path="signin" element={<AuthPage mode="signin" />} />
        <Route path="signup" element={<AuthPage mode="signup" />} />
        <Route path="about" element={<AboutPage />} />
        <Route
          path="add-blog"
          element={
            <RequireAuth>
              <BlogEditorPage />
            </RequireAuth>
          }
        />
        <Route path="edit/:id" element={<BlogEditorPage />} />
        <Route path="blog/:id" element={<BlogPage />} />
        <Route path="search" element={<SearchPage />} />
        <Route path="tag/:tag" element={<TagPage />} />
        <Route path="verify-email/:verificationToken" element={<VerifyEmailPage />} />
        <Route path="forgot-password" element={<ForgotPasswordPage />} />
        <Route path="reset-password/:token" element={<ResetPasswordPage />} />
        <Route path="confirm-transfer/:action/:token" element={<ConfirmTransferPage />} />
        <Route path="newsletter/confirm/:token" element={<NewsletterConfirmPage />} />
        <Route path="newsletter/unsubscribe/:token" element={<NewsletterUnsubscribePage />} />
        <Route
          path="edit-profile"
          element={
            <RequireAuth>
              <EditProfilePage />
            </RequireAuth>
          }
        />
        <Route
          path="setting"
          element={
            <RequireAuth>
              <SettingsPage />
            </RequireAuth>
          }
        />
        <Route
          path="notifications"
          element={
            <RequireAuth>
              <NotificationsPage />
            </RequireAuth>
          }
        />
        <Route
          path="moderation"
          element={
            <RequireAuth>
              <ModerationPage />
            </RequireAuth>
          }
        />
        {/* "/@{username}": react-router segments cannot mix '@' with a param; ProfilePage checks the '@'. */}
        <Route path=":handle" element={<ProfilePage />} />
        <Route path=":handle/:tab" element={<ProfilePage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
